-- The events list carries each scene's open tasks' assignees (assigneeIds, for the timeline's assignee filter), so
-- a task's insert, change or delete bumps the timeline's events_revision like any other write the list shows.
CREATE TRIGGER `events_revision_task_insert` AFTER INSERT ON `tasks` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = NEW.timeline_id; END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_task_update` AFTER UPDATE OF `done`, `assignee_id`, `event_id` ON `tasks` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = NEW.timeline_id; END;
--> statement-breakpoint
CREATE TRIGGER `events_revision_task_delete` AFTER DELETE ON `tasks` BEGIN UPDATE timelines SET events_revision = events_revision + 1 WHERE id = OLD.timeline_id; END;
