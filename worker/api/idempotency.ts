import { and, eq, sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { idempotencyKeys } from "../../db/schema";
import { badRequest, conflict } from "../lib/errors";
import {
  IDEMPOTENCY_KEPT_MS,
  LEASE_MS,
  RETRY_AFTER_S,
  type ReservedKey,
  idempotencyMessages,
  purgeIdempotencyKeys,
} from "../services/idempotency-keys";
import { type ApiEnv, currentUser } from "./context";

/**
 * `Idempotency-Key` on creates (issue 46): the outbox sends a queued create with a key made when the change was
 * queued; when it is sent again (its answer was lost as the network came back), the same account's same key is
 * answered with the first result instead of making it twice. Without the header a request is as before.
 *
 * Keyed by account and key, so another account's key never reaches this account's answer. A key is kept 24 hours
 * (IDEMPOTENCY_KEPT_MS).
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
/** On an answer that repeats the first one for the same key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";
/** The share of keyed requests that also delete the expired keys (one round trip saved on the others). */
const PURGE_CHANCE = 0.02;
/** How long a repeat waits for the first request still being made before it is told to try again. */
const WAIT_MS = 5_000;
export { LEASE_MS, RETRY_AFTER_S, idempotencyMessages };

async function sha256(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** After the body's validation: a refused body is told so, and keeps no key. */
export const idempotent = createMiddleware<ApiEnv>(async (c, next) => {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key === undefined) return next();
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) throw badRequest(idempotencyMessages.invalid);
  const userId = currentUser(c).id;
  const db = c.var.db;
  const request = `${c.req.method} ${new URL(c.req.url).pathname} ${await sha256(await c.req.text())}`;
  // Expired keys go in the scheduled purge (worker/services/purge.ts); now and then here too, not on every create.
  if (Math.random() < PURGE_CHANCE) await purgeIdempotencyKeys(db);
  const mine = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  let reserved = await db
    .insert(idempotencyKeys)
    .values({ userId, key, request })
    .onConflictDoNothing()
    .returning({ createdAt: idempotencyKeys.createdAt });
  if (reserved.length === 0) {
    // Sent before: the first answer, once there is one.
    const started = Date.now();
    for (;;) {
      const [row] = await db.select().from(idempotencyKeys).where(mine);
      if (!row) break;
      if (Date.parse(row.createdAt) < Date.now() - IDEMPOTENCY_KEPT_MS) {
        // Kept past its day (not purged yet): forgotten, this request is made as new.
        await db.delete(idempotencyKeys).where(and(mine, eq(idempotencyKeys.createdAt, row.createdAt)));
        break;
      }
      if (row.request !== request) throw conflict(idempotencyMessages.reused);
      if (row.status !== null && row.body !== null) {
        return c.body(row.body, row.status as 200, { "Content-Type": "application/json", [REPLAYED_HEADER]: "true" });
      }
      if (Date.parse(row.createdAt) < Date.now() - LEASE_MS) {
        // The first request died without an answer: its key is let go (only that stale reservation: a repeat that
        // took it over meanwhile keeps its own).
        await db
          .delete(idempotencyKeys)
          .where(and(mine, sql`${idempotencyKeys.status} IS NULL`, eq(idempotencyKeys.createdAt, row.createdAt)));
        break;
      }
      if (Date.now() - started > WAIT_MS) throw conflict(idempotencyMessages.inProgress, { retryAfter: RETRY_AFTER_S });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The first request failed or died meanwhile (its key was let go): this one is made as if new, unless another
    // repeat took the key first (then that one's answer is waited for, as above).
    reserved = await db
      .insert(idempotencyKeys)
      .values({ userId, key, request })
      .onConflictDoNothing()
      .returning({ createdAt: idempotencyKeys.createdAt });
    if (reserved.length === 0) throw conflict(idempotencyMessages.inProgress, { retryAfter: RETRY_AFTER_S });
  }

  // The create writes its answer into the key in its own batch (keyAnswerStatements), with what it makes.
  const held: ReservedKey = { userId, key, createdAt: reserved[0].createdAt, recorded: false };
  c.set("idempotencyKey", held);
  // Only this request's reservation (a repeat that took the key over after the lease keeps its own).
  const ours = and(mine, eq(idempotencyKeys.createdAt, held.createdAt), sql`${idempotencyKeys.status} IS NULL`);
  await next();
  if (c.res.ok) {
    if (held.recorded) return;
    const body = await c.res.clone().text();
    await db.update(idempotencyKeys).set({ status: c.res.status, body }).where(ours);
  } else if (!held.recorded) {
    // Nothing was made: the key is free for the change to be sent again.
    await db.delete(idempotencyKeys).where(ours);
  }
});
