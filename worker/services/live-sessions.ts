import { and, gt, inArray } from "drizzle-orm";
import type { Db } from "../../db/client";
import { SESSION_ABSOLUTE_LIFETIME_MS } from "../../db/domain/rules";
import { sessions } from "../../db/schema";

/** D1 binds at most 100 parameters per statement. */
const CHUNK = 90;

/**
 * Which of these sessions are alive now, and until when (the sliding expiry, never past the absolute lifetime
 * from sign-in). Both Durable Objects ask this of the sessions their sockets were opened with.
 */
export async function liveSessions(db: Db, ids: readonly string[], now = Date.now()): Promise<Map<string, number>> {
  const live = new Map<string, number>();
  const unique = [...new Set(ids)];
  for (let i = 0; i < unique.length; i += CHUNK) {
    const rows = await db
      .select({ id: sessions.id, expiresAt: sessions.expiresAt, createdAt: sessions.createdAt })
      .from(sessions)
      .where(and(inArray(sessions.id, unique.slice(i, i + CHUNK)), gt(sessions.expiresAt, new Date(now).toISOString())))
      .all();
    for (const r of rows) {
      const until = Math.min(Date.parse(r.expiresAt), Date.parse(r.createdAt) + SESSION_ABSOLUTE_LIFETIME_MS);
      if (until > now) live.set(r.id, until);
    }
  }
  return live;
}
