CREATE TABLE `event_plotlines` (
	`event_id` integer NOT NULL,
	`plotline_id` integer NOT NULL,
	PRIMARY KEY(`event_id`, `plotline_id`),
	FOREIGN KEY (`event_id`) REFERENCES `events`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`plotline_id`) REFERENCES `plotlines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `event_plotlines_plotline_idx` ON `event_plotlines` (`plotline_id`);--> statement-breakpoint
CREATE TABLE `plotlines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`timeline_id` integer NOT NULL,
	`title` text NOT NULL,
	`color` text NOT NULL,
	`position` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`timeline_id`) REFERENCES `timelines`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `plotlines_timeline_position_idx` ON `plotlines` (`timeline_id`,`position`);--> statement-breakpoint
CREATE TRIGGER `events_revision_plotline_insert` AFTER INSERT ON `event_plotlines` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = (SELECT timeline_id FROM events WHERE id = NEW.event_id); END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_plotline_delete` AFTER DELETE ON `event_plotlines` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = (SELECT timeline_id FROM events WHERE id = OLD.event_id); END;
