ALTER TABLE `ai_usage` ADD `free` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `sessions` DROP COLUMN `ai_uses`;