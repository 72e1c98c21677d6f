ALTER TABLE `timelines` ADD `events_revision` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TRIGGER `events_revision_event_insert` AFTER INSERT ON `events` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = NEW.timeline_id; END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_event_update` AFTER UPDATE ON `events` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id IN (OLD.timeline_id, NEW.timeline_id); END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_event_delete` AFTER DELETE ON `events` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = OLD.timeline_id; END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_link_insert` AFTER INSERT ON `event_entities` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = (SELECT timeline_id FROM events WHERE id = NEW.event_id); END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_link_delete` AFTER DELETE ON `event_entities` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = (SELECT timeline_id FROM events WHERE id = OLD.event_id); END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_link_update` AFTER UPDATE ON `event_entities` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id IN (SELECT timeline_id FROM events WHERE id IN (OLD.event_id, NEW.event_id)); END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_file_insert` AFTER INSERT ON `files` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = NEW.timeline_id; END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_file_update` AFTER UPDATE ON `files` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id IN (OLD.timeline_id, NEW.timeline_id); END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_file_delete` AFTER DELETE ON `files` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = OLD.timeline_id; END;
