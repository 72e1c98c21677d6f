import { type SQL, and, eq, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { idempotencyKeys } from "../../db/schema";
import { conflict } from "../lib/errors";
import { DAY } from "../lib/time";

/** How long a create's `Idempotency-Key` and its first answer are kept (worker/api/idempotency.ts). */
export const IDEMPOTENCY_KEPT_MS = DAY;

/**
 * A first request with no answer after this long died on its way (the server was stopped under it, between keeping
 * the key and making the thing): nothing was made, and a repeat takes the key over instead of being told to wait for
 * ever. A create is made in milliseconds; a Worker request does not live this long without answering.
 */
export const LEASE_MS = 15_000;
/** Seconds the client is asked to wait (Retry-After) before sending a repeat whose first request is still being made. */
export const RETRY_AFTER_S = 2;

export const idempotencyMessages = {
  invalid: 'Idempotency-Key must be 8 to 100 characters: letters, digits, "-" or "_"',
  reused: "This Idempotency-Key was already used for a different request",
  inProgress: "A request with this Idempotency-Key is still being made; try again in a moment",
};

/**
 * The key a lone create holds while it is made (reserved by the `idempotent` middleware, worker/api/idempotency.ts).
 * The create writes its answer in its own D1 batch (`keyAnswerStatements`) and sets `recorded`: the thing made and
 * the answer a repeat gets are then one transaction, so a server stopped between them cannot leave a made thing
 * whose key a repeat takes over after the lease (and makes again).
 */
export type ReservedKey = { userId: number; key: string; createdAt: string; recorded: boolean };

/** This request's reservation of the key, as it was made (a repeat that took the key over has a newer one). */
const heldBy = (reserved: ReservedKey) =>
  and(
    eq(idempotencyKeys.userId, reserved.userId),
    eq(idempotencyKeys.key, reserved.key),
    eq(idempotencyKeys.createdAt, reserved.createdAt),
    isNull(idempotencyKeys.status),
  );

/**
 * The statements that write a create's answer into its key, for the end of the create's own batch: first a check
 * that fails the whole batch (nothing made) when the key is no longer this request's (it ran past the lease and a
 * repeat took it over: that one makes it), then the answer.
 */
export function keyAnswerStatements(db: Db, reserved: ReservedKey, status: number, body: SQL<string>) {
  const held = sql`SELECT 1 FROM idempotency_keys WHERE user_id = ${reserved.userId} AND key = ${reserved.key}
    AND created_at = ${reserved.createdAt} AND status IS NULL`;
  return [
    db
      .select({ held: sql<number>`CASE WHEN EXISTS (${held}) THEN 1 ELSE json('this Idempotency-Key was taken over') END` })
      .from(sql`(SELECT 1)`),
    db.update(idempotencyKeys).set({ status, body }).where(heldBy(reserved)),
  ] as const;
}

/**
 * Runs a create's batch that carries its key's answer (`reserved`: none without a key). On success the key is marked
 * recorded (the middleware writes nothing more); a batch refused because a repeat took the key over meanwhile is the
 * 409 a repeat gets while the first is being made.
 */
export async function runWithKey<T>(db: Db, reserved: ReservedKey | null | undefined, run: () => Promise<T>): Promise<T> {
  try {
    const result = await run();
    if (reserved) reserved.recorded = true;
    return result;
  } catch (error) {
    if (reserved) {
      const still = await db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(heldBy(reserved)).get();
      if (!still) throw conflict(idempotencyMessages.inProgress, { retryAfter: RETRY_AFTER_S });
    }
    throw error;
  }
}

/** Deletes the keys kept longer than IDEMPOTENCY_KEPT_MS: in the scheduled purge, and now and then on a create. */
export const purgeIdempotencyKeys = (db: Db, now = Date.now()) =>
  db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_KEPT_MS).toISOString()))
    .returning({ key: idempotencyKeys.key });
