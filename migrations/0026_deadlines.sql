-- Deadlines (DESIGN §12 'Deadlines, sessions and tasks'): a timeline's deadline (an ISO date, null: none) and its
-- writing days (JSON ISO weekday numbers, 1 = Monday … 7 = Sunday; null: all seven).
ALTER TABLE `timelines` ADD `deadline` text;--> statement-breakpoint
ALTER TABLE `timelines` ADD `writing_days` text;
