-- The writer's desk (DESIGN §12): a scene's synopsis and notes (Markdown, never counted, never in the manuscript)
-- and a timeline's byline (null: the owner's name).
ALTER TABLE `events` ADD `synopsis` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `events` ADD `notes` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `timelines` ADD `byline` text;
