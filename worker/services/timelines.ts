import { writingDaysOf } from "../../db/domain/deadlines";
import { and, desc, eq, exists, isNull, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Timeline, type User, events, timelineShares, timelines, users } from "../../db/schema";
import { type CreateTimeline, FREE_TIMELINE_LIMIT, type UpdateTimeline } from "../../db/domain/validation";
import { forbidden } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, accessOf, requireTimelineAccess, callerShare } from "./access";
import { timelineWordCount } from "./chapters";
import { type Deps, type FileDeps, authorOf } from "./deps";
import { isPremium } from "./plans";

export const FREE_LIMIT_MESSAGE = `Free plan is limited to ${FREE_TIMELINE_LIMIT} timelines. Upgrade to Premium for unlimited timelines.`;

/** The series a book belongs to, as its screen's header names it ("Book 2 of …"). */
export type SeriesMention = { id: number; title: string; position: number };

export type TimelineView = {
  id: number;
  userId: number;
  title: string;
  description: string | null;
  isPublic: boolean;
  createdAt: string;
  updatedAt: string;
  isShared: boolean;
  isOwner: boolean;
  accessLevel: Exclude<Access, "none">;
  /** The sum of its scenes' word counts. */
  wordCount: number;
  /** The writer's target for the whole book (null: none). */
  targetWords: number | null;
  /** The beat sheet overlaid on the story (a template id), or null. */
  structureTemplateId: string | null;
  /** Viewers may comment on its scenes (the owner's setting). */
  viewersCanComment: boolean;
  /** The name on the title pages and the EPUB's creator: the owner's byline, else the owner's name (DESIGN §12). */
  byline: string;
  /** The deadline (an ISO date, null: none) and the writing days (ISO weekdays, 1 = Monday … 7 = Sunday). */
  deadline: string | null;
  writingDays: number[];
  /** Only the owner sees the share code. */
  shareCode?: string | null;
  /** The series the book belongs to, set by the timeline screen's loader for its header. */
  series?: SeriesMention | null;
};

/** The timeline owner's name and email: what a timeline without a byline is signed with. */
export type OwnerName = { name: string | null; email: string };

/** The byline a timeline shows: the one its owner set, else the owner's name (else their email's name). */
export const bylineOf = (byline: string | null | undefined, owner: OwnerName | undefined) =>
  byline?.trim() || owner?.name?.trim() || owner?.email.split("@")[0] || "Anonymous";

/** The owner's name and email, for `toTimelineView` where the caller is not the owner. */
export const ownerNameOf = (db: Db, timeline: Pick<Timeline, "userId">) =>
  db.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, timeline.userId)).get();

export function toTimelineView(
  timeline: Timeline,
  access: Exclude<Access, "none">,
  isShared: boolean,
  owner: OwnerName | undefined,
  wordCount = 0,
): TimelineView {
  const isOwner = access === "owner";
  return {
    id: timeline.id,
    userId: timeline.userId,
    title: timeline.title,
    description: timeline.description,
    isPublic: timeline.isPublic,
    createdAt: timeline.createdAt,
    updatedAt: timeline.updatedAt,
    isShared,
    isOwner,
    accessLevel: access,
    wordCount,
    targetWords: timeline.targetWords ?? null,
    structureTemplateId: timeline.structureTemplateId ?? null,
    viewersCanComment: timeline.viewersCanComment ?? true,
    byline: bylineOf(timeline.byline, owner),
    deadline: timeline.deadline ?? null,
    writingDays: writingDaysOf(timeline.writingDays),
    ...(isOwner ? { shareCode: timeline.shareCode } : {}),
  };
}

/** Own timelines plus those shared with me, newest first. One query. */
export async function listTimelines(db: Db, user: Pick<User, "id">): Promise<TimelineView[]> {
  const hasShares = exists(db.select({ one: sql`1` }).from(timelineShares).where(eq(timelineShares.timelineId, timelines.id)));
  const rows = await db
    .select({
      timeline: timelines,
      shareLevel: timelineShares.accessLevel,
      owner: { name: users.name, email: users.email },
      hasShares: sql<number>`${hasShares}`,
      wordCount:
        sql<number>`(SELECT coalesce(sum(e.word_count), 0) FROM events e WHERE e.timeline_id = "timelines"."id" AND e.deleted_at IS NULL)`.mapWith(
          Number,
        ),
    })
    .from(timelines)
    .innerJoin(users, eq(users.id, timelines.userId))
    .leftJoin(timelineShares, callerShare(user))
    .where(and(isNull(timelines.deletedAt), or(eq(timelines.userId, user.id), eq(timelineShares.sharedWithUserId, user.id))))
    .orderBy(desc(timelines.createdAt), desc(timelines.id));
  return rows.map((r) => {
    const access = accessOf(r.timeline, user, r.shareLevel) as Exclude<Access, "none">;
    const isShared = access !== "owner" || Boolean(r.hasShares);
    return toTimelineView(r.timeline, access, isShared, r.owner, r.wordCount);
  });
}

/** A client-sent createdAt is kept when it is a real date near now; otherwise the server's clock. */
function creationTime(value?: string) {
  if (!value) return nowIso();
  const t = Date.parse(value);
  if (Number.isNaN(t) || Math.abs(t - Date.now()) > 24 * 3600_000) return nowIso();
  return new Date(t).toISOString();
}

export async function createTimeline(db: Db, user: User, input: CreateTimeline): Promise<TimelineView> {
  const createdAt = creationTime(input.createdAt);
  const premium = isPremium(user);
  // The limit check and the insert are one statement, so two quick clicks cannot pass the limit.
  const inserted = await db.run(sql`
    INSERT INTO timelines (user_id, title, description, created_at, updated_at)
    SELECT ${user.id}, ${input.title}, ${input.description ?? null}, ${createdAt}, ${createdAt}
    WHERE ${premium ? 1 : 0} = 1
       OR (SELECT count(*) FROM timelines WHERE user_id = ${user.id} AND deleted_at IS NULL) < ${FREE_TIMELINE_LIMIT}
  `);
  if (!inserted.meta.changes) throw forbidden(FREE_LIMIT_MESSAGE);
  const timeline = await db
    .select()
    .from(timelines)
    .where(eq(timelines.id, Number(inserted.meta.last_row_id)))
    .get();
  return toTimelineView(timeline!, "owner", false, user);
}

export async function getTimeline(db: Db, user: User, timelineId: number, shareCode?: string | null) {
  const { timeline, access, hasShares } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const [wordCount, owner] = await Promise.all([timelineWordCount(db, timelineId), access === "owner" ? user : ownerNameOf(db, timeline)]);
  return toTimelineView(timeline, access as Exclude<Access, "none">, access !== "owner" || hasShares, owner, wordCount);
}

export async function updateTimeline({ db, room }: Deps, user: User, timelineId: number, input: UpdateTimeline) {
  await requireTimelineAccess(db, user, timelineId, "owner");
  const changes: Partial<Timeline> = { updatedAt: nowIso() };
  if (input.title !== undefined) changes.title = input.title;
  if (input.description !== undefined) changes.description = input.description;
  if (input.targetWords !== undefined) changes.targetWords = input.targetWords;
  if (input.viewersCanComment !== undefined) changes.viewersCanComment = input.viewersCanComment;
  if (input.byline !== undefined) changes.byline = input.byline;
  if (input.deadline !== undefined) changes.deadline = input.deadline;
  if (input.writingDays !== undefined) changes.writingDays = JSON.stringify([...input.writingDays].sort());
  const updated = await db.update(timelines).set(changes).where(eq(timelines.id, timelineId)).returning().get();
  room(timelineId, { action: "timeline-updated", by: authorOf(user), subject: updated.title });
  return toTimelineView(updated, "owner", false, user, await timelineWordCount(db, timelineId));
}

/**
 * Moves the timeline to Trash: its events and files stay until a restore or the purge. Writers in its scenes' shared
 * docs are closed out (the docs' text is in D1). Owners only.
 */
export async function deleteTimeline({ db, room, removeDocs }: FileDeps, user: User, timelineId: number) {
  await requireTimelineAccess(db, user, timelineId, "owner");
  await db
    .update(timelines)
    .set({ deletedAt: nowIso(), deletedBy: user.id })
    .where(and(eq(timelines.id, timelineId), isNull(timelines.deletedAt)));
  const eventIds = await db.select({ id: events.id }).from(events).where(eq(events.timelineId, timelineId));
  await removeDocs?.(eventIds.map((e) => e.id));
  room(timelineId, { action: "timeline-deleted", by: authorOf(user) });
  return { success: true };
}
