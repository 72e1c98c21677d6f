import type { QueryClient } from "@tanstack/react-query";
import { ApiError } from "~/lib/client";
import { OUTBOX_SCOPE } from "./outbox";

/**
 * Runs of queued creates (docs/client-data.md, issue 46): the creates of one kind queued in a row in the outbox
 * (chapters' `chapter.create`, scenes' `event.create`) go together in one request to the kind's batch route
 * (`POST /api/timelines/{id}/chapters/batch`, `…/events/batch`), each with its own key; the others, when their turn
 * comes, take their answer from that request's without one.
 */

/** How many queued creates in a row go in one request. */
export const CREATE_RUN_MAX = 20;

/** A queued create: what a run is made of. */
export type QueuedCreate = { kind: string; key?: string; timelineId: number; shareCode?: string | null };

/** The server's answers for the creates of a run sent ahead of their turn, by their Idempotency-Key. */
const batchAnswers = new Map<string, unknown>();

/**
 * The create `change` and the creates of its kind queued right after it in the outbox (nothing else between them,
 * the same timeline and share code, each with its key), at most CREATE_RUN_MAX: sent together, in their order, they
 * are made as one by one would make them, and each answered once by its key.
 */
export function createRun<C extends QueuedCreate>(queryClient: QueryClient, change: C): C[] {
  if (!change.key) return [change];
  const queue = queryClient
    .getMutationCache()
    .getAll()
    .filter((m) => m.state.status === "pending" && m.options.scope?.id === OUTBOX_SCOPE)
    .sort((a, b) => a.mutationId - b.mutationId);
  const from = queue.findIndex((m) => m.state.variables === change);
  if (from < 0) return [change];
  const run: C[] = [change];
  for (const mutation of queue.slice(from + 1)) {
    if (run.length >= CREATE_RUN_MAX) break;
    const next = mutation.state.variables as C | undefined;
    if (next?.kind !== change.kind || !next.key || next.timelineId !== change.timelineId) break;
    if ((next.shareCode ?? null) !== (change.shareCode ?? null)) break;
    run.push(next);
  }
  return run;
}

/**
 * Sends the create `change` on its turn: its answer if an earlier create's run brought it; else its run in one
 * request (`sendRun`, answers in the run's order) when there is one, the others' answers kept for their turn; else
 * alone (`sendOne`). A run the server refuses (one item refused: 400; a key reused: 409 without Retry-After) is sent
 * one by one, so only the refused create is refused.
 */
export async function sendCreate<C extends QueuedCreate, R>(
  queryClient: QueryClient,
  change: C,
  sendRun: (run: C[]) => Promise<R[]>,
  sendOne: () => Promise<R>,
): Promise<R> {
  if (change.key && batchAnswers.has(change.key)) {
    const answered = batchAnswers.get(change.key) as R;
    batchAnswers.delete(change.key);
    return answered;
  }
  const run = createRun(queryClient, change);
  if (run.length > 1) {
    const answers = await sendRun(run).catch((error: unknown) => {
      if (
        error instanceof ApiError &&
        (error.status === 400 || (error.status === 409 && !(error.body as { retryAfter?: unknown } | null)?.retryAfter))
      )
        return null;
      throw error;
    });
    if (answers?.[0]) {
      for (const [i, queued] of run.entries()) if (i > 0 && queued.key && answers[i]) batchAnswers.set(queued.key, answers[i]);
      return answers[0];
    }
  }
  return sendOne();
}
