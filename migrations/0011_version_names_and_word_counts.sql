ALTER TABLE `event_versions` ADD `name` text;--> statement-breakpoint
ALTER TABLE `event_versions` ADD `word_count` integer;--> statement-breakpoint
ALTER TABLE `event_versions` ADD `restored_from` integer;