import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { SESSION_ABSOLUTE_LIFETIME_MS } from "../../db/domain/rules";
import { sessions, type User, users } from "../../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { type AuthVia, tokenFromRequest } from "../lib/request-auth";
import { DAY, HOUR, isoIn, nowIso } from "../lib/time";
import { type TimelineAccessRow, timelineAccessRow } from "./access";
import { endAccess } from "./access-end";
import type { Deps } from "./deps";
import type { UnreadNotification } from "./notifications";

/** Sliding: a session unused for this long ends. It never outlives SESSION_ABSOLUTE_LIFETIME_MS from sign-in. */
export const SESSION_TTL_MS = 30 * DAY;
export { SESSION_ABSOLUTE_LIFETIME_MS };
const SESSION_SLIDE_AFTER_MS = HOUR;

export type SessionUser = {
  user: User;
  /** The stored SHA-256 of the token. */
  sessionId: string;
  /** When the session ends unless used again (never after its absolute end). */
  expiresAt: string;
  /** When this session was created: the writer's last sign-in. */
  signedInAt: string;
  unread: UnreadNotification[];
};
export type RequestAuth = { session: SessionUser | null; via: AuthVia | null; token: string | null };

/** A fresh opaque token; only its SHA-256 is stored. */
export async function createSession(db: Db, userId: number) {
  const token = randomToken(32);
  await db.insert(sessions).values({
    id: await sha256Hex(token),
    userId,
    expiresAt: isoIn(Math.min(SESSION_TTL_MS, SESSION_ABSOLUTE_LIFETIME_MS)),
  });
  return token;
}

/** The one statement that reads a session (by its stored id) with its user and unread notifications. */
function sessionRow(db: Db, id: string) {
  return db
    .select({
      user: users,
      expiresAt: sessions.expiresAt,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      // Unread notifications ride along in the same statement (they show on the next page view).
      unread: sql<string | null>`(SELECT json_group_array(json_object('id', n.id, 'type', n.type, 'title', n.title,
        'message', n.message, 'createdAt', n.created_at)) FROM (SELECT * FROM notifications
        WHERE notifications.user_id = ${users.id} AND notifications.read = 0 ORDER BY notifications.id DESC LIMIT 5) n)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, nowIso()), gt(sessions.createdAt, absoluteCutoff())))
    .limit(1);
}
type SessionRow = Awaited<ReturnType<typeof sessionRow>>[number];

/**
 * The session a row found (null: none, or past its end); slides the expiry at most once an hour, never past
 * 30 days from sign-in (a session that old is refused however recently it was used).
 */
function sessionOf(db: Db, id: string, row: SessionRow | undefined, defer: (p: Promise<unknown>) => void): SessionUser | null {
  if (!row) return null;
  const absoluteEnd = Date.parse(row.createdAt) + SESSION_ABSOLUTE_LIFETIME_MS;
  let expiresAt = new Date(Math.min(Date.parse(row.expiresAt), absoluteEnd)).toISOString();
  if (Date.now() - Date.parse(row.lastSeenAt) > SESSION_SLIDE_AFTER_MS) {
    expiresAt = new Date(Math.min(Date.now() + SESSION_TTL_MS, absoluteEnd)).toISOString();
    defer(db.update(sessions).set({ lastSeenAt: nowIso(), expiresAt }).where(eq(sessions.id, id)).run());
  }
  let unread: UnreadNotification[] = [];
  try {
    unread = row.unread ? (JSON.parse(row.unread) as UnreadNotification[]) : [];
  } catch {
    unread = [];
  }
  return { user: row.user, sessionId: id, expiresAt, signedInAt: row.createdAt, unread };
}

/** Resolves an opaque token to its session and user (one statement). */
export async function getSessionUser(db: Db, token: string, defer: (p: Promise<unknown>) => void = () => {}): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const id = await sha256Hex(token);
  return sessionOf(db, id, (await sessionRow(db, id))[0], defer);
}

/**
 * `getSessionUser` and a timeline's access row for that session's writer, in one round trip to the database
 * (a batch): for the calls that need both before anything else, such as a timeline's events list.
 */
export async function getSessionWithTimeline(
  db: Db,
  token: string,
  timelineId: number,
  defer: (p: Promise<unknown>) => void = () => {},
): Promise<{ session: SessionUser | null; timeline: TimelineAccessRow | null }> {
  if (!token || token.length > 200) return { session: null, timeline: null };
  const id = await sha256Hex(token);
  const sessionUserId = sql<number>`(SELECT ${sessions.userId} FROM ${sessions} WHERE ${sessions.id} = ${id})`;
  const [rows, access] = await db.batch([sessionRow(db, id), timelineAccessRow(db, { id: sessionUserId }, timelineId)]);
  const session = sessionOf(db, id, rows[0], defer);
  const row = access[0];
  // The same session named both rows in one batch; the check keeps it so should either statement change.
  return { session, timeline: session && row && row.userId === session.user.id ? row : null };
}

/** One helper for the API, the page loaders and the room's upgrade check. */
export async function authenticate(request: Request, db: Db, defer?: (p: Promise<unknown>) => void): Promise<RequestAuth> {
  const found = tokenFromRequest(request);
  if (!found) return { session: null, via: null, token: null };
  const session = await getSessionUser(db, found.token, defer);
  return { session, via: session ? found.via : null, token: found.token };
}

/** `authenticate`, reading `timelineId`'s access row for the writer in the same round trip. */
export async function authenticateWithTimeline(
  request: Request,
  db: Db,
  timelineId: number,
  defer?: (p: Promise<unknown>) => void,
): Promise<RequestAuth & { timeline: TimelineAccessRow | null }> {
  const found = tokenFromRequest(request);
  if (!found) return { session: null, via: null, token: null, timeline: null };
  const { session, timeline } = await getSessionWithTimeline(db, found.token, timelineId, defer);
  return { session, via: session ? found.via : null, token: found.token, timeline };
}

/** Sessions signed in before this instant have reached their absolute end. */
export const absoluteCutoff = (now = Date.now()) => new Date(now - SESSION_ABSOLUTE_LIFETIME_MS).toISOString();

/** Revokes the session and closes its open room and doc sockets. */
export async function logout(deps: Deps, token: string) {
  const ended = await deps.db
    .delete(sessions)
    .where(eq(sessions.id, await sha256Hex(token)))
    .returning({ id: sessions.id, userId: sessions.userId })
    .get();
  if (ended) await closeSessionSockets(deps, ended.userId, [ended.id]);
}

/**
 * These sessions ended (logout, password reset, a claimed account): the rooms of every timeline the user
 * owns or has a share in (bounded) close the sockets opened with them, the timelines' open docs too
 * (`endAccess`). A room not told (a link-only visit, or past the bound) finds out at its next session re-check.
 */
export async function closeSessionSockets(deps: Deps, userId: number, sessionIds: string[]) {
  await endAccess(deps, { userId, sessionIds, reason: "signed-out" });
}
