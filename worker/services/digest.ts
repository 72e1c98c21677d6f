import { and, asc, eq, inArray, isNull, lte, ne, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { notifications, users } from "../../db/schema";
import { DAY } from "../lib/time";
import type { Mailer } from "../lib/mailer";

/** Writers whose digest is due get one mail at most per run of the hourly cron this many at a time. */
const DIGESTS_PER_RUN = 200;

/**
 * The daily digest (run by the hourly cron): each writer who chose 'daily' and whose last digest is a day old
 * or more gets one mail listing their unread notifications since then (shares are mailed at once, always), and
 * the time is kept for the next. A writer with nothing new gets nothing and stays due.
 */
export async function sendDailyDigests(db: Db, mailer: Mailer, origin: string, now = Date.now()) {
  const nowIso = new Date(now).toISOString();
  const dueBefore = new Date(now - DAY).toISOString();
  const since = sql`coalesce(${users.lastDigestAt}, '')`;
  const due = await db
    .select({ id: users.id, email: users.email, since: users.lastDigestAt })
    .from(users)
    .where(
      and(
        eq(users.notifyEmail, "daily"),
        or(isNull(users.lastDigestAt), lte(users.lastDigestAt, dueBefore)),
        sql`EXISTS (SELECT 1 FROM ${notifications} n WHERE n.user_id = ${users.id} AND n.read = 0 AND n.type != 'share'
          AND n.created_at > ${since} AND n.created_at <= ${nowIso})`,
      ),
    )
    .limit(DIGESTS_PER_RUN);
  if (due.length === 0) return { digests: 0 };
  const unread = await db
    .select({
      userId: notifications.userId,
      title: notifications.title,
      message: notifications.message,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(
      and(
        inArray(
          notifications.userId,
          due.map((u) => u.id),
        ),
        eq(notifications.read, false),
        ne(notifications.type, "share"),
        lte(notifications.createdAt, nowIso),
      ),
    )
    .orderBy(asc(notifications.id));
  let sent = 0;
  for (const writer of due) {
    const items = unread.filter((n) => n.userId === writer.id && n.createdAt > (writer.since ?? ""));
    if (items.length === 0) continue;
    const lines = items.map((n) => `- ${n.message}`).join("\n");
    try {
      await mailer.send({
        to: writer.email,
        subject: `Your StoryWeave digest: ${items.length} new notification${items.length === 1 ? "" : "s"}`,
        text:
          `Since your last digest:\n\n${lines}\n\nOpen your inbox: ${origin}/notifications\n\n` +
          `You receive one digest a day. Change it in your account settings: ${origin}/account`,
      });
    } catch (error) {
      // Left due: the next hourly run tries again.
      console.error("[digest] failed to mail a digest:", String(error));
      continue;
    }
    await db
      .update(users)
      .set({ lastDigestAt: nowIso })
      .where(and(eq(users.id, writer.id), or(isNull(users.lastDigestAt), lte(users.lastDigestAt, dueBefore))));
    sent += 1;
  }
  return { digests: sent };
}
