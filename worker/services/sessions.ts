import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sessions, type User, users } from "../../db/schema";
import { randomToken, sha256Hex } from "../lib/crypto";
import { type AuthVia, tokenFromRequest } from "../lib/request-auth";
import { DAY, HOUR, isoIn, nowIso } from "../lib/time";
import type { UnreadNotification } from "./notifications";

export const SESSION_TTL_MS = 30 * DAY;
const SESSION_SLIDE_AFTER_MS = HOUR;

export type SessionUser = { user: User; sessionId: string; aiUses: number; unread: UnreadNotification[] };
export type RequestAuth = { session: SessionUser | null; via: AuthVia | null; token: string | null };

/** A fresh opaque token; only its SHA-256 is stored. */
export async function createSession(db: Db, userId: number) {
  const token = randomToken(32);
  await db.insert(sessions).values({
    id: await sha256Hex(token),
    userId,
    expiresAt: isoIn(SESSION_TTL_MS),
  });
  return token;
}

/** Resolves an opaque token to its user; slides the expiry at most once an hour. */
export async function getSessionUser(db: Db, token: string, defer: (p: Promise<unknown>) => void = () => {}): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const id = await sha256Hex(token);
  const row = await db
    .select({
      user: users,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      aiUses: sessions.aiUses,
      // Unread notifications ride along in the same statement (they show on the next page view).
      unread: sql<string | null>`(SELECT json_group_array(json_object('id', n.id, 'type', n.type, 'title', n.title,
        'message', n.message, 'createdAt', n.created_at)) FROM (SELECT * FROM notifications
        WHERE notifications.user_id = ${users.id} AND notifications.read = 0 ORDER BY notifications.id DESC LIMIT 5) n)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, nowIso())))
    .get();
  if (!row) return null;
  if (Date.now() - Date.parse(row.lastSeenAt) > SESSION_SLIDE_AFTER_MS) {
    defer(
      db
        .update(sessions)
        .set({ lastSeenAt: nowIso(), expiresAt: isoIn(SESSION_TTL_MS) })
        .where(eq(sessions.id, id))
        .run(),
    );
  }
  let unread: UnreadNotification[] = [];
  try {
    unread = row.unread ? (JSON.parse(row.unread) as UnreadNotification[]) : [];
  } catch {
    unread = [];
  }
  return { user: row.user, sessionId: id, aiUses: row.aiUses, unread };
}

/** One helper for the API, the page loaders and the room's upgrade check. */
export async function authenticate(request: Request, db: Db, defer?: (p: Promise<unknown>) => void): Promise<RequestAuth> {
  const found = tokenFromRequest(request);
  if (!found) return { session: null, via: null, token: null };
  const session = await getSessionUser(db, found.token, defer);
  return { session, via: session ? found.via : null, token: found.token };
}

export async function logout(db: Db, token: string) {
  await db.delete(sessions).where(eq(sessions.id, await sha256Hex(token)));
}
