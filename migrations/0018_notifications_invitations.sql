CREATE TABLE `invitations` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_id` integer NOT NULL,
	`invited_by_user_id` integer NOT NULL,
	`email` text NOT NULL,
	`access_level` text NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`invited_by_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token_unique` ON `invitations` (`token_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_timeline_email_unique` ON `invitations` (`timeline_id`,lower("email"));--> statement-breakpoint
CREATE INDEX `invitations_email_idx` ON `invitations` (lower("email"));--> statement-breakpoint
ALTER TABLE `users` ADD `notify_email` text DEFAULT 'instant' NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `last_digest_at` text;