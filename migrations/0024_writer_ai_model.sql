-- Bring your own model: a writer's AI provider, model and key (AES-GCM under a key derived from APP_SECRET).
CREATE TABLE `user_ai_settings` (
  `user_id` integer PRIMARY KEY NOT NULL REFERENCES `users`(`id`) ON DELETE cascade,
  `provider` text NOT NULL,
  `base_url` text,
  `model` text NOT NULL,
  `api_key` text NOT NULL,
  `updated_at` text NOT NULL
);
