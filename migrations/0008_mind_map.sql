CREATE TABLE `map_edges` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_id` integer NOT NULL,
	`source_id` integer NOT NULL,
	`target_id` integer NOT NULL,
	`label` text DEFAULT '' NOT NULL,
	`color` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_id`) REFERENCES `map_nodes`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`target_id`) REFERENCES `map_nodes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `map_edges_timeline_idx` ON `map_edges` (`timeline_id`);--> statement-breakpoint
CREATE INDEX `map_edges_source_idx` ON `map_edges` (`source_id`);--> statement-breakpoint
CREATE INDEX `map_edges_target_idx` ON `map_edges` (`target_id`);--> statement-breakpoint
CREATE TABLE `map_nodes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_id` integer NOT NULL,
	`kind` text NOT NULL,
	`event_id` integer,
	`entity_id` integer,
	`text` text DEFAULT '' NOT NULL,
	`x` real,
	`y` real,
	`width` real,
	`height` real,
	`color` text,
	`parent_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`parent_id`) REFERENCES `map_nodes`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `map_nodes_timeline_idx` ON `map_nodes` (`timeline_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `map_nodes_event_unique` ON `map_nodes` (`timeline_id`,`event_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `map_nodes_entity_unique` ON `map_nodes` (`timeline_id`,`entity_id`);