-- Relationships between codex entries of a timeline (DESIGN.md §12): 'mother of', 'rival of', from a scene on.
CREATE TABLE `relationships` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `timeline_id` integer NOT NULL REFERENCES `timelines`(`id`) ON DELETE cascade,
  `from_id` integer NOT NULL REFERENCES `entities`(`id`) ON DELETE cascade,
  `to_id` integer NOT NULL REFERENCES `entities`(`id`) ON DELETE cascade,
  `label` text NOT NULL,
  `since_event_id` integer REFERENCES `events`(`id`) ON DELETE set null,
  `created_at` text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
--> statement-breakpoint
CREATE INDEX `relationships_timeline_idx` ON `relationships` (`timeline_id`);
