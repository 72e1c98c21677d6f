import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { SESSION_ABSOLUTE_LIFETIME_MS } from "../../db/domain/rules";
import { sessions, type User, users } from "../../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { type AuthVia, tokenFromRequest } from "../lib/request-auth";
import { DAY, HOUR, isoIn, nowIso } from "../lib/time";
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

/**
 * Resolves an opaque token to its user; slides the expiry at most once an hour, never past 30 days
 * from sign-in (a session that old is refused however recently it was used).
 */
export async function getSessionUser(db: Db, token: string, defer: (p: Promise<unknown>) => void = () => {}): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const id = await sha256Hex(token);
  const row = await db
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
    .get();
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

/** One helper for the API, the page loaders and the room's upgrade check. */
export async function authenticate(request: Request, db: Db, defer?: (p: Promise<unknown>) => void): Promise<RequestAuth> {
  const found = tokenFromRequest(request);
  if (!found) return { session: null, via: null, token: null };
  const session = await getSessionUser(db, found.token, defer);
  return { session, via: session ? found.via : null, token: found.token };
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
