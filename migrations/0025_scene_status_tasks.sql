-- Scene status (DESIGN.md §12): 'Idea', 'Outline', 'Draft', 'Revised' or 'Done'; existing scenes have none (null).
ALTER TABLE `events` ADD `status` text;
--> statement-breakpoint
-- A scene's tasks: text, done, and an assignee who can edit the timeline.
CREATE TABLE `tasks` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `event_id` integer NOT NULL REFERENCES `events`(`id`) ON DELETE cascade,
  `timeline_id` integer NOT NULL REFERENCES `timelines`(`id`) ON DELETE cascade,
  `text` text NOT NULL,
  `done` integer DEFAULT false NOT NULL,
  `assignee_id` integer REFERENCES `users`(`id`) ON DELETE set null,
  `created_by` integer REFERENCES `users`(`id`) ON DELETE set null,
  `created_at` text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  `updated_at` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `tasks_event_idx` ON `tasks` (`event_id`);
--> statement-breakpoint
CREATE INDEX `tasks_assignee_idx` ON `tasks` (`assignee_id`, `done`);
--> statement-breakpoint
CREATE INDEX `tasks_timeline_idx` ON `tasks` (`timeline_id`);
