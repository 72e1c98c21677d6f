ALTER TABLE `events` ADD `story_start_text` text;--> statement-breakpoint
ALTER TABLE `events` ADD `story_end_text` text;--> statement-breakpoint
ALTER TABLE `timelines` ADD `calendar` text;