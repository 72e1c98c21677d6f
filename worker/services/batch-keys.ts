import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type IdempotencyKey, idempotencyKeys } from "../../db/schema";
import { conflict } from "../lib/errors";
import { IDEMPOTENCY_KEPT_MS } from "./idempotency-keys";

/**
 * The keys of a batch of queued creates (chapters-batch.ts, events-batch.ts; issue 46), each the Idempotency-Key
 * its item would have alone: which were used before (answered with their first result), and which were left by a
 * request that died or kept past their day (taken over).
 */
export type BatchMessages = { reused: string; inProgress: string; retryAfter: number; leaseMs: number };

export const BATCH_KEY_PATTERN = /^[A-Za-z0-9_-]{8,100}$/;

export async function sha256(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The account's rows for these keys (read with the caller's access, in one round trip). */
export const usedKeysQuery = (db: Db, userId: number, keys: string[]) =>
  db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), inArray(idempotencyKeys.key, keys)));

/**
 * The used keys still answered (by key) and the stale ones to let go; 409 for a key used with another request, or
 * one a lone create is still making.
 */
export function sortUsedKeys(used: IdempotencyKey[], keys: string[], requests: string[], messages: BatchMessages) {
  const usedBy = new Map(used.map((row) => [row.key, row]));
  const stale: string[] = [];
  for (const [i, key] of keys.entries()) {
    const row = usedBy.get(key);
    if (!row) continue;
    if (Date.parse(row.createdAt) < Date.now() - IDEMPOTENCY_KEPT_MS) {
      // Kept past its day (not purged yet): forgotten.
      stale.push(key);
      usedBy.delete(key);
      continue;
    }
    if (row.request !== requests[i]) throw conflict(messages.reused);
    if (row.status !== null && row.body !== null) continue;
    // Reserved by a create sent alone that is still being made, or died on its way (no answer after the lease).
    if (Date.parse(row.createdAt) >= Date.now() - messages.leaseMs)
      throw conflict(messages.inProgress, { retryAfter: messages.retryAfter });
    stale.push(key);
    usedBy.delete(key);
  }
  return { usedBy, stale };
}

/** Deletes the stale keys (only as read: a key taken again meanwhile is newer), first in the batch that makes. */
export function staleKeysGone(db: Db, userId: number, stale: string[], leaseMs: number) {
  if (stale.length === 0) return [];
  return [
    db
      .delete(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.userId, userId),
          inArray(idempotencyKeys.key, stale),
          or(
            lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_KEPT_MS).toISOString()),
            and(sql`${idempotencyKeys.status} IS NULL`, lt(idempotencyKeys.createdAt, new Date(Date.now() - leaseMs).toISOString())),
          ),
        ),
      ),
  ];
}

/** Runs the batch; another request taking one of these keys meanwhile (all undone) is asked again shortly. */
export async function runKeyedBatch(db: Db, statements: unknown[], messages: BatchMessages): Promise<readonly unknown[]> {
  try {
    return await db.batch(statements as unknown as Parameters<typeof db.batch>[0]);
  } catch (error) {
    if (/UNIQUE|constraint/i.test(String(error))) throw conflict(messages.inProgress, { retryAfter: messages.retryAfter });
    throw error;
  }
}
