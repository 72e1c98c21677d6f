import { and, eq, lt, sql } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { idempotencyKeys } from "../../db/schema";
import { badRequest, conflict } from "../lib/errors";
import { type ApiEnv, currentUser } from "./context";

/**
 * `Idempotency-Key` on creates (issue 46): the outbox sends a queued create with a key made when the change was
 * queued; when it is sent again (its answer was lost as the network came back), the same account's same key is
 * answered with the first result instead of making it twice. Without the header a request is as before.
 *
 * Keyed by account and key, so another account's key never reaches this account's answer. A key is kept KEPT_MS.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;
/** On an answer that repeats the first one for the same key. */
export const REPLAYED_HEADER = "Idempotent-Replayed";
const KEPT_MS = 24 * 60 * 60 * 1000;
/** How long a repeat waits for the first request still being made before it is told to try again. */
const WAIT_MS = 5_000;

export const idempotencyMessages = {
  invalid: 'Idempotency-Key must be 8 to 100 characters: letters, digits, "-" or "_"',
  reused: "This Idempotency-Key was already used for a different request",
  inProgress: "A request with this Idempotency-Key is still being made; try again in a moment",
};

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
  const cutoff = new Date(Date.now() - KEPT_MS).toISOString();
  await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
  const mine = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  const reserved = await db
    .insert(idempotencyKeys)
    .values({ userId, key, request })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (reserved.length === 0) {
    // Sent before: the first answer, once there is one.
    const started = Date.now();
    for (;;) {
      const [row] = await db.select().from(idempotencyKeys).where(mine);
      if (!row) break;
      if (row.request !== request) throw conflict(idempotencyMessages.reused);
      if (row.status !== null && row.body !== null) {
        return c.body(row.body, row.status as 200, { "Content-Type": "application/json", [REPLAYED_HEADER]: "true" });
      }
      if (Date.now() - started > WAIT_MS) throw conflict(idempotencyMessages.inProgress);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // The first request failed meanwhile (its key was let go): this one is made as if new.
    await db.insert(idempotencyKeys).values({ userId, key, request }).onConflictDoNothing();
  }

  await next();
  if (c.res.ok) {
    const body = await c.res.clone().text();
    await db.update(idempotencyKeys).set({ status: c.res.status, body }).where(mine);
  } else {
    // Nothing was made: the key is free for the change to be sent again.
    await db.delete(idempotencyKeys).where(and(mine, sql`${idempotencyKeys.status} IS NULL`));
  }
});
