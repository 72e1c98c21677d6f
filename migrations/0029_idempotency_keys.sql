-- Idempotency keys (issue 46, write anywhere): a create sent again with the same `Idempotency-Key` by the same
-- account (an outbox replaying a change whose answer was lost) is answered with the first result, not made twice.
-- `status` and `body` are null while the first request is being made. Kept about 24 hours.
CREATE TABLE `idempotency_keys` (
	`user_id` integer NOT NULL,
	`key` text NOT NULL,
	`request` text NOT NULL,
	`status` integer,
	`body` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`user_id`, `key`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `idempotency_keys_created_idx` ON `idempotency_keys` (`created_at`);
