import { and, asc, count, desc, eq, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type CreateTask, type UpdateTask, taskLimits, taskMessages } from "../../db/domain/validation-tasks";
import { type Timeline, type User, events, tasks, timelineShares, timelines, users } from "../../db/schema";
import { badRequest } from "../lib/errors";
import { nowIso } from "../lib/time";
import { accessColumns, callerShare, requireRowAccess } from "./access";
import { type Deps, authorOf } from "./deps";
import { EVENT_NOT_FOUND } from "./events";
import { type NotifyMail, notificationPath, notify } from "./notifications";
import { type Limiter, spend } from "./rate-limits";

// A scene's tasks (DESIGN.md §12 'Deadlines, sessions and tasks'): `{id, text, done, assigneeId}`. Anyone who can
// read the timeline sees them; editors add, tick, assign and delete them. The assignee is someone who can edit it.

export type TaskView = { id: number; text: string; done: boolean; assigneeId: number | null };
export type MyTask = TaskView & { eventId: number; eventTitle: string; timelineId: number; timelineTitle: string };

type TaskRow = typeof tasks.$inferSelect;
const toTaskView = (t: TaskRow): TaskView => ({ id: t.id, text: t.text, done: t.done, assigneeId: t.assigneeId });

/** A live scene and the caller's access to it; strangers get 404, viewers 403 when `need` is collaborator. */
async function loadEvent(db: Db, user: User, eventId: number, need: "viewer" | "collaborator", shareCode?: string | null) {
  const row = await db
    .select({ eventId: events.id, eventTitle: events.title, ...accessColumns(user) })
    .from(events)
    .innerJoin(timelines, eq(timelines.id, events.timelineId))
    .leftJoin(timelineShares, callerShare(user, events.timelineId))
    .where(and(eq(events.id, eventId), isNull(events.deletedAt)))
    .get();
  return requireRowAccess(row, user, need, shareCode, EVENT_NOT_FOUND).row;
}

/** A task of a live scene, with edit access to its timeline: a stranger (or a forged id) gets 404, a viewer 403. */
async function loadTask(db: Db, user: User, taskId: number, shareCode?: string | null) {
  const row = await db
    .select({ task: tasks, eventTitle: events.title, ...accessColumns(user) })
    .from(tasks)
    .innerJoin(events, eq(events.id, tasks.eventId))
    .innerJoin(timelines, eq(timelines.id, tasks.timelineId))
    .leftJoin(timelineShares, callerShare(user, tasks.timelineId))
    .where(and(eq(tasks.id, taskId), isNull(events.deletedAt)))
    .get();
  return requireRowAccess(row, user, "collaborator", shareCode, taskMessages.notFound).row;
}

/** The writers who can edit the timeline (its owner and its editors), whom a task may be assigned to. */
export async function editorsOf(db: Db, timeline: Pick<Timeline, "id" | "userId">) {
  return db
    .select({ id: users.id, name: users.name, email: users.email, notifyEmail: users.notifyEmail })
    .from(users)
    .leftJoin(timelineShares, and(eq(timelineShares.sharedWithUserId, users.id), eq(timelineShares.timelineId, timeline.id)))
    .where(
      or(eq(users.id, timeline.userId), and(eq(timelineShares.timelineId, timeline.id), eq(timelineShares.accessLevel, "collaborator"))),
    )
    .orderBy(asc(users.name), asc(users.id));
}

/** The assignee, checked: someone who can edit the timeline (else 400). */
async function requireAssignee(db: Db, timeline: Timeline, assigneeId: number) {
  const editor = (await editorsOf(db, timeline)).find((e) => e.id === assigneeId);
  if (!editor) throw badRequest(taskMessages.assigneeNoAccess);
  return editor;
}

/** Tells the new assignee (inbox, and mail by their preference); never when writers assign themselves. */
async function notifyAssignee(
  db: Db,
  mail: NotifyMail | undefined,
  by: User,
  to: Awaited<ReturnType<typeof requireAssignee>>,
  timeline: Timeline,
  eventId: number,
  eventTitle: string,
  text: string,
) {
  if (to.id === by.id) return;
  const who = authorOf(by).userName;
  await notify(
    db,
    mail,
    to,
    {
      type: "task",
      title: `${who} assigned you a task`,
      message: `${who} assigned you "${text}" on "${eventTitle}" in "${timeline.title}"`,
      relatedId: eventId,
      relatedType: "event",
      timelineId: timeline.id,
    },
    notificationPath({ timelineId: timeline.id, eventId }),
    by,
  );
}

/** GET /api/events/{id}/tasks (read access): oldest first. */
export async function listTasks(db: Db, user: User, eventId: number, shareCode?: string | null): Promise<TaskView[]> {
  await loadEvent(db, user, eventId, "viewer", shareCode);
  const rows = await db.select().from(tasks).where(eq(tasks.eventId, eventId)).orderBy(asc(tasks.id));
  return rows.map(toTaskView);
}

/** POST /api/events/{id}/tasks (edit access). */
export async function createTask(
  { db, mail, room }: Deps,
  limiter: Limiter,
  user: User,
  eventId: number,
  input: CreateTask,
  shareCode?: string | null,
): Promise<TaskView> {
  const { timeline, eventTitle } = await loadEvent(db, user, eventId, "collaborator", shareCode);
  const assignee = input.assigneeId ? await requireAssignee(db, timeline, input.assigneeId) : null;
  const existing = await db.select({ n: count() }).from(tasks).where(eq(tasks.eventId, eventId)).get();
  if ((existing?.n ?? 0) >= taskLimits.perScene) throw badRequest(taskMessages.tooMany);
  await spend(limiter, "taskWrites", `user:${user.id}`);
  const now = nowIso();
  const row = await db
    .insert(tasks)
    .values({
      eventId,
      timelineId: timeline.id,
      text: input.text,
      assigneeId: assignee?.id ?? null,
      createdBy: user.id,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get();
  room(timeline.id, { action: "tasks-changed", by: authorOf(user), eventId });
  if (assignee) await notifyAssignee(db, mail, user, assignee, timeline, eventId, eventTitle, row.text);
  return toTaskView(row);
}

/** PATCH /api/tasks/{id} (edit access): text, done, assignee. */
export async function updateTask(
  { db, mail, room }: Deps,
  limiter: Limiter,
  user: User,
  taskId: number,
  input: UpdateTask,
  shareCode?: string | null,
): Promise<TaskView> {
  const { task, timeline, eventTitle } = await loadTask(db, user, taskId, shareCode);
  const assignee = input.assigneeId ? await requireAssignee(db, timeline, input.assigneeId) : null;
  await spend(limiter, "taskWrites", `user:${user.id}`);
  const row = await db
    .update(tasks)
    .set({
      ...(input.text !== undefined && { text: input.text }),
      ...(input.done !== undefined && { done: input.done }),
      ...(input.assigneeId !== undefined && { assigneeId: input.assigneeId }),
      updatedAt: nowIso(),
    })
    .where(eq(tasks.id, taskId))
    .returning()
    .get();
  if (!row) throw badRequest(taskMessages.notFound);
  room(timeline.id, { action: "tasks-changed", by: authorOf(user), eventId: task.eventId });
  if (assignee && assignee.id !== task.assigneeId) {
    await notifyAssignee(db, mail, user, assignee, timeline, task.eventId, eventTitle, row.text);
  }
  return toTaskView(row);
}

/** DELETE /api/tasks/{id} (edit access). */
export async function deleteTask({ db, room }: Deps, user: User, taskId: number, shareCode?: string | null) {
  const { task, timeline } = await loadTask(db, user, taskId, shareCode);
  await db.delete(tasks).where(eq(tasks.id, taskId));
  room(timeline.id, { action: "tasks-changed", by: authorOf(user), eventId: task.eventId });
}

/**
 * GET /api/account/tasks: the writer's open tasks across timelines, newest first, with the timeline's and the scene's
 * titles; only where they can still read the timeline (the owner, or a share), never from Trash.
 */
export async function listMyTasks(db: Db, user: User): Promise<MyTask[]> {
  const rows = await db
    .select({
      id: tasks.id,
      text: tasks.text,
      done: tasks.done,
      assigneeId: tasks.assigneeId,
      eventId: tasks.eventId,
      eventTitle: events.title,
      timelineId: tasks.timelineId,
      timelineTitle: timelines.title,
    })
    .from(tasks)
    .innerJoin(events, eq(events.id, tasks.eventId))
    .innerJoin(timelines, eq(timelines.id, tasks.timelineId))
    .where(
      and(
        eq(tasks.assigneeId, user.id),
        eq(tasks.done, false),
        isNull(events.deletedAt),
        isNull(timelines.deletedAt),
        or(
          eq(timelines.userId, user.id),
          sql`EXISTS (SELECT 1 FROM ${timelineShares} s WHERE s.timeline_id = ${timelines.id} AND s.shared_with_user_id = ${user.id})`,
        ),
      ),
    )
    .orderBy(desc(tasks.id))
    .limit(200);
  return rows;
}

export type Assignee = { id: number; name: string };

const assigneesOf = async (db: Db, timeline: Timeline): Promise<Assignee[]> =>
  (await editorsOf(db, timeline)).map((e) => ({ id: e.id, name: e.name ?? e.email.split("@")[0] }));

/** GET /api/events/{id}/assignees (edit access): whom the scene's tasks may be assigned to, as `{id, name}`. */
export async function listAssignees(db: Db, user: User, eventId: number, shareCode?: string | null) {
  const { timeline } = await loadEvent(db, user, eventId, "collaborator", shareCode);
  return assigneesOf(db, timeline);
}

/**
 * GET /api/events/{id}/task-panel (edit access): what the scene editor's Tasks show, in one request: the tasks
 * (oldest first) and whom they may be assigned to.
 */
export async function taskPanel(db: Db, user: User, eventId: number, shareCode?: string | null) {
  const { timeline } = await loadEvent(db, user, eventId, "collaborator", shareCode);
  const [rows, assignees] = await Promise.all([
    db.select().from(tasks).where(eq(tasks.eventId, eventId)).orderBy(asc(tasks.id)),
    assigneesOf(db, timeline),
  ]);
  return { tasks: rows.map(toTaskView), assignees };
}
