-- Bring your own model: a writer's AI provider, model and key (AES-GCM under a key derived from APP_SECRET).
CREATE TABLE `user_ai_settings` (
  `user_id` integer PRIMARY KEY NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
  `provider` text NOT NULL,
  `base_url` text,
  `model` text NOT NULL,
  `api_key` text NOT NULL,
  `updated_at` text NOT NULL
);
--> statement-breakpoint
-- Codex progressions: what changes about an entry from a scene on.
CREATE TABLE `entity_progressions` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `entity_id` integer NOT NULL REFERENCES `entities`(`id`) ON DELETE cascade,
  `event_id` integer NOT NULL REFERENCES `events`(`id`) ON DELETE cascade,
  `text` text NOT NULL,
  `created_at` text NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
--> statement-breakpoint
CREATE INDEX `entity_progressions_entity_idx` ON `entity_progressions` (`entity_id`);
