ALTER TABLE `events` ADD `for_readers` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE TABLE `reader_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_id` integer NOT NULL,
	`code` text NOT NULL,
	`label` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reader_links_code_unique` ON `reader_links` (`code`);--> statement-breakpoint
CREATE INDEX `reader_links_timeline_idx` ON `reader_links` (`timeline_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `readers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`link_id` integer NOT NULL,
	`token_hash` text NOT NULL,
	`name` text NOT NULL,
	`event_id` integer,
	`at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`link_id`) REFERENCES `reader_links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `readers_token_unique` ON `readers` (`token_hash`);--> statement-breakpoint
CREATE INDEX `readers_link_idx` ON `readers` (`link_id`);
--> statement-breakpoint
ALTER TABLE `comments` ADD `reader_id` integer REFERENCES readers(id) ON DELETE set null;
