CREATE TABLE `event_dependencies` (
	`event_id` integer NOT NULL,
	`after_event_id` integer NOT NULL,
	PRIMARY KEY(`event_id`, `after_event_id`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`after_event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_dependencies_after_idx` ON `event_dependencies` (`after_event_id`);--> statement-breakpoint
ALTER TABLE `entities` ADD `born` text;--> statement-breakpoint
ALTER TABLE `entities` ADD `died` text;--> statement-breakpoint
ALTER TABLE `entities` ADD `born_sort` integer;--> statement-breakpoint
ALTER TABLE `entities` ADD `died_sort` integer;--> statement-breakpoint
CREATE TRIGGER `events_revision_dependency_insert` AFTER INSERT ON `event_dependencies` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = (SELECT timeline_id FROM events WHERE id = NEW.event_id); END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_dependency_delete` AFTER DELETE ON `event_dependencies` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = (SELECT timeline_id FROM events WHERE id = OLD.event_id); END;
