CREATE TABLE `series` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`title` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `series_owner_idx` ON `series` (`owner_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `entities` ADD `series_id` integer REFERENCES series(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `entities_series_idx` ON `entities` (`series_id`);--> statement-breakpoint
ALTER TABLE `timelines` ADD `series_id` integer REFERENCES series(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `timelines` ADD `series_position` integer;--> statement-breakpoint
CREATE INDEX `timelines_series_idx` ON `timelines` (`series_id`,`series_position`);