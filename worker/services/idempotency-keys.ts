import { lt } from "drizzle-orm";
import type { Db } from "../../db/client";
import { idempotencyKeys } from "../../db/schema";
import { DAY } from "../lib/time";

/** How long a create's `Idempotency-Key` and its first answer are kept (worker/api/idempotency.ts). */
export const IDEMPOTENCY_KEPT_MS = DAY;

/** Deletes the keys kept longer than IDEMPOTENCY_KEPT_MS: in the scheduled purge, and now and then on a create. */
export const purgeIdempotencyKeys = (db: Db, now = Date.now()) =>
  db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now - IDEMPOTENCY_KEPT_MS).toISOString()))
    .returning({ key: idempotencyKeys.key });
