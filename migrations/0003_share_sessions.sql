CREATE TABLE `share_link_removals` (
	`timeline_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`share_code` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`timeline_id`, `user_id`, `share_code`),
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `timeline_shares` ADD `via_link` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `timelines` ADD `share_link_off` integer DEFAULT false NOT NULL;