CREATE TABLE `chapters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_id` integer NOT NULL,
	`title` text NOT NULL,
	`position` integer NOT NULL,
	`target_words` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `chapters_timeline_position_idx` ON `chapters` (`timeline_id`,`position`);--> statement-breakpoint
ALTER TABLE `events` ADD `chapter_id` integer REFERENCES chapters(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `word_count` integer;--> statement-breakpoint
ALTER TABLE `events` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `events` ADD `deleted_by` integer REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
CREATE INDEX `events_chapter_idx` ON `events` (`chapter_id`);--> statement-breakpoint
CREATE INDEX `events_deleted_idx` ON `events` (`deleted_at`);--> statement-breakpoint
ALTER TABLE `timelines` ADD `target_words` integer;--> statement-breakpoint
ALTER TABLE `timelines` ADD `deleted_at` text;--> statement-breakpoint
ALTER TABLE `timelines` ADD `deleted_by` integer REFERENCES users(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `daily_goal_words` integer;