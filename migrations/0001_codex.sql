CREATE TABLE `entities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_id` integer NOT NULL,
	`kind` text NOT NULL,
	`name` text NOT NULL,
	`aliases` text DEFAULT '[]' NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`color` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `entities_timeline_idx` ON `entities` (`timeline_id`);--> statement-breakpoint
CREATE TABLE `event_entities` (
	`event_id` integer NOT NULL,
	`entity_id` integer NOT NULL,
	PRIMARY KEY(`event_id`, `entity_id`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`entity_id`) REFERENCES `entities`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_entities_entity_idx` ON `event_entities` (`entity_id`);--> statement-breakpoint
ALTER TABLE `events` ADD `pov_entity_id` integer REFERENCES entities(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `events` ADD `story_start` text;--> statement-breakpoint
ALTER TABLE `events` ADD `story_end` text;--> statement-breakpoint
ALTER TABLE `events` ADD `story_label` text;--> statement-breakpoint
ALTER TABLE `events` ADD `story_sort` integer;--> statement-breakpoint
CREATE INDEX `events_timeline_story_idx` ON `events` (`timeline_id`,`story_sort`);