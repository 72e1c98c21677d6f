import { z } from "zod";
import { CreateEventSchema } from "../../db/domain/validation";
import { type Event, type User, idempotencyKeys } from "../../db/schema";
import { requireTimelineAccess, timelineAccessRow } from "./access";
import { BATCH_KEY_PATTERN, type BatchMessages, runKeyedBatch, sha256, sortUsedKeys, staleKeysGone, usedKeysQuery } from "./batch-keys";
import { type Deps, authorOf } from "./deps";
import { type EventView, prepareEventCreate } from "./events";

/**
 * Queued scene creates sent together (issue 46, as chapters-batch.ts does for chapters):
 * `POST /api/timelines/{id}/events/batch` with `{events: [{...the single create's fields, key}]}`. Each item is the
 * create `POST /api/timelines/{id}/events` with that body and `Idempotency-Key: key` would make, in the list's order,
 * checked as it would be, and each is answered once: an item whose key was already used (alone, or in an earlier
 * batch whose answer was lost) is answered with its first result and not made again. The new scenes and their keys'
 * answers are written in one D1 batch (one transaction): the server dying mid-way leaves all of them or none. A
 * scene with a chapter is placed at the end of its chapter's scenes in that transaction, as the single create
 * places it.
 */
export const EVENT_BATCH_MAX = 100;

export const eventBatchMessages = {
  list: `Events must be a list of 1 to ${EVENT_BATCH_MAX} events`,
  key: 'Each event needs a key of 8 to 100 characters: letters, digits, "-" or "_"',
  duplicateKey: "Each event needs its own key",
} as const;

const itemKey = z.object({ key: z.string({ error: eventBatchMessages.key }).regex(BATCH_KEY_PATTERN, eventBatchMessages.key) });

export const CreateEventBatchSchema = z.object({
  events: z
    // The key first: a keyless item is told about its key, then the single create's own checks.
    .array(z.intersection(itemKey, CreateEventSchema), { error: eventBatchMessages.list })
    .min(1, eventBatchMessages.list)
    .max(EVENT_BATCH_MAX, eventBatchMessages.list)
    .refine((items) => new Set(items.map((i) => i.key)).size === items.length, eventBatchMessages.duplicateKey),
});
export type CreateEventBatch = z.infer<typeof CreateEventBatchSchema>;

/**
 * The `request` an item's key is kept with: the one `POST /api/timelines/{id}/events` with the item's body (the item
 * as sent, without its `key`, in its own order: the client writes `{...body, key}`) keeps (worker/api/idempotency.ts),
 * so a create sent alone and then again in a batch (or the other way) is made once.
 */
export async function eventCreateRequest(timelineId: number, sent: Record<string, unknown>) {
  const { key: _key, ...body } = sent;
  return `POST /api/timelines/${timelineId}/events ${await sha256(JSON.stringify(body))}`;
}

/** The scenes in the order sent: each new one made, or one made before with the same key answered again. */
export async function createEventBatch(
  { db, room, locale }: Deps,
  user: User,
  timelineId: number,
  input: CreateEventBatch,
  sent: Record<string, unknown>[],
  shareCode: string | null | undefined,
  messages: BatchMessages,
): Promise<{ events: EventView[] }> {
  const keys = input.events.map((e) => e.key);
  const requests = await Promise.all(input.events.map((_, i) => eventCreateRequest(timelineId, sent[i] ?? {})));
  // The caller's access and the keys already used, in one round trip.
  const [access, used] = await db.batch([timelineAccessRow(db, user, timelineId), usedKeysQuery(db, user.id, keys)]);
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode, access[0] ?? null);
  const { usedBy, stale } = sortUsedKeys(used, keys, requests, messages);
  const fresh = input.events.map((item, i) => ({ item, i })).filter(({ item }) => !usedBy.has(item.key));
  const made = new Map<number, EventView>();
  if (fresh.length > 0) {
    // Each checked as the single create checks it (the same messages), before anything is written.
    const creates = [];
    for (const { item, i } of fresh) {
      const { key, ...fields } = item;
      creates.push({ i, key, create: await prepareEventCreate(db, user, timeline, fields, locale) });
    }
    const statements = creates.flatMap(({ i, key, create }) => [
      ...create.statements,
      // The answer a repeat of this key gets, written with the scene (the same transaction).
      db
        .insert(idempotencyKeys)
        .values({ userId: user.id, key, request: requests[i], status: 201, body: create.answerSql() })
        .returning({ body: idempotencyKeys.body }),
    ]);
    const staleGone = staleKeysGone(db, user.id, stale, messages.leaseMs);
    const results = await runKeyedBatch(db, [...staleGone, ...statements], messages);
    let at = staleGone.length;
    for (const { i, create } of creates) {
      const inserted = (results[at] as Event[])[0];
      const answer = (results[at + create.statements.length] as { body: string | null }[])[0]?.body;
      at += create.statements.length + 1;
      if (!inserted || !answer) throw new Error("event batch: a new scene's answer is missing");
      // Placed in its chapter in the same transaction: the answer says where it is.
      made.set(i, JSON.parse(answer) as EventView);
    }
    const first = fresh[0].item.title;
    room(timelineId, {
      action: "added",
      by: authorOf(user),
      subject: fresh.length === 1 ? first : `${first} and ${fresh.length - 1} more`,
    });
  }
  const list = input.events.map((item, i) => made.get(i) ?? (JSON.parse(usedBy.get(item.key)?.body ?? "null") as EventView));
  return { events: list };
}
