CREATE TABLE `scene_activity` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_id` integer NOT NULL,
	`event_id` integer NOT NULL,
	`user_id` integer,
	`user_name` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `scene_activity_timeline_idx` ON `scene_activity` (`timeline_id`,`created_at`);