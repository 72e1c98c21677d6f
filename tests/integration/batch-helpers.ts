// What the batch endpoints' tests (events-batch, chapters-batch) assert alike.
import { expect } from "vitest";
import { idempotencyMessages } from "../../worker/api/idempotency";
import type { call } from "./helpers";

type Answer = Awaited<ReturnType<typeof call>>;

/**
 * The same batch sent twice at once: at least one answers 201 (both alike when both do) and the other, still
 * running, is refused as in progress. What was made is for the caller to check.
 */
export function expectOneBatchMade(a: Answer, b: Answer) {
  const ok = [a, b].filter((r) => r.status === 201);
  expect(ok.length).toBeGreaterThan(0);
  for (const r of [a, b]) if (r.status !== 201) expect(r.json.error).toBe(idempotencyMessages.inProgress);
  if (ok.length === 2) expect(a.json).toEqual(b.json);
}
