import { sql } from "drizzle-orm";
import { z } from "zod";
import { chapterLimits, chapterMessages, targetWords } from "../../db/domain/validation-chapters";
import { type User, chapters, idempotencyKeys } from "../../db/schema";
import { nowIso } from "../lib/time";
import { requireTimelineAccess, timelineAccessRow } from "./access";
import { type ChapterView, newChapterRow } from "./chapters";
import { BATCH_KEY_PATTERN, type BatchMessages, runKeyedBatch, sha256, sortUsedKeys, staleKeysGone, usedKeysQuery } from "./batch-keys";
import { type Deps, authorOf } from "./deps";

/**
 * Queued chapter creates sent together (issue 46: 200 chapters added offline are sent in a few requests, not 200):
 * `POST /api/timelines/{id}/chapters/batch` with `{chapters: [{title, targetWords?, key}]}`. Each item is the create
 * `POST /api/timelines/{id}/chapters` with `Idempotency-Key: key` would make, last in the chapters' order, in the
 * list's order, and each is answered once: an item whose key was already used (alone, or in an earlier batch whose
 * answer was lost) is answered with its first result and not made again. The new chapters and their keys' answers
 * are written in one D1 batch (one transaction): the server dying mid-way leaves all of them or none.
 */
export const CHAPTER_BATCH_MAX = 100;

export const chapterBatchMessages = {
  list: `Chapters must be a list of 1 to ${CHAPTER_BATCH_MAX} chapters`,
  key: 'Each chapter needs a key of 8 to 100 characters: letters, digits, "-" or "_"',
  duplicateKey: "Each chapter needs its own key",
} as const;

const KEY_PATTERN = BATCH_KEY_PATTERN;

const chapterTitle = z
  .string({ error: chapterMessages.titleRequired })
  .trim()
  .min(1, chapterMessages.titleRequired)
  .max(chapterLimits.title, chapterMessages.titleTooLong);

export const CreateChapterBatchSchema = z.object({
  chapters: z
    .array(
      z.object({
        title: chapterTitle,
        targetWords: targetWords.optional(),
        key: z.string({ error: chapterBatchMessages.key }).regex(KEY_PATTERN, chapterBatchMessages.key),
      }),
      { error: chapterBatchMessages.list },
    )
    .min(1, chapterBatchMessages.list)
    .max(CHAPTER_BATCH_MAX, chapterBatchMessages.list)
    .refine((items) => new Set(items.map((i) => i.key)).size === items.length, chapterBatchMessages.duplicateKey),
});
export type CreateChapterBatch = z.infer<typeof CreateChapterBatchSchema>;

/** One item as the client sent it (before trimming): what its fingerprint is made from. */
export type SentChapter = { title?: unknown; targetWords?: unknown };

/**
 * The `request` an item's key is kept with: the one `POST /api/timelines/{id}/chapters` with the item's body
 * (`{"title":…}` or `{"title":…,"targetWords":…}`, as the client's JSON.stringify writes it) keeps (see
 * worker/api/idempotency.ts), so a create sent alone and then again in a batch (or the other way) is made once.
 */
export async function chapterCreateRequest(timelineId: number, sent: SentChapter) {
  const body = JSON.stringify(
    sent.targetWords === undefined ? { title: sent.title } : { title: sent.title, targetWords: sent.targetWords },
  );
  return `POST /api/timelines/${timelineId}/chapters ${await sha256(body)}`;
}

export type { BatchMessages };

/** The chapters in the order sent: each new one made, or one made before with the same key answered again. */
export async function createChapterBatch(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  input: CreateChapterBatch,
  sent: SentChapter[],
  shareCode: string | null | undefined,
  messages: BatchMessages,
): Promise<{ chapters: ChapterView[] }> {
  const keys = input.chapters.map((c) => c.key);
  const requests = await Promise.all(input.chapters.map((_, i) => chapterCreateRequest(timelineId, sent[i] ?? {})));
  // The caller's access and the keys already used, in one round trip.
  const [access, used] = await db.batch([timelineAccessRow(db, user, timelineId), usedKeysQuery(db, user.id, keys)]);
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode, access[0] ?? null);
  const { usedBy, stale } = sortUsedKeys(used, keys, requests, messages);
  const fresh = input.chapters.map((item, i) => ({ item, i })).filter(({ item }) => !usedBy.has(item.key));
  const made = new Map<number, ChapterView>();
  if (fresh.length > 0) {
    const now = nowIso();
    const statements = fresh.flatMap(({ item, i }) => [
      db.insert(chapters).values(newChapterRow(timelineId, item, now)),
      // The answer a repeat of this key gets, written with the chapter (the same transaction).
      db
        .insert(idempotencyKeys)
        .values({
          userId: user.id,
          key: item.key,
          request: requests[i],
          status: 201,
          body: sql`(SELECT json_object('id', c.id, 'timelineId', c.timeline_id, 'title', c.title, 'position', c.position,
            'targetWords', c.target_words, 'wordCount', 0) FROM chapters c WHERE c.id = last_insert_rowid())`,
          createdAt: now,
        })
        .returning({ body: idempotencyKeys.body }),
    ]);
    const staleGone = staleKeysGone(db, user.id, stale, messages.leaseMs);
    const results = await runKeyedBatch(db, [...staleGone, ...statements], messages);
    const answers = results.slice(staleGone.length).filter((_, n) => n % 2 === 1) as { body: string | null }[][];
    for (const [n, { i }] of fresh.entries()) {
      const body = answers[n]?.[0]?.body;
      if (!body) throw new Error("chapter batch: a new chapter's answer is missing");
      made.set(i, JSON.parse(body) as ChapterView);
    }
    const first = fresh[0].item.title;
    room(timelineId, {
      action: "chapter-added",
      by: authorOf(user),
      subject: fresh.length === 1 ? first : `${first} and ${fresh.length - 1} more`,
    });
  }
  const list = input.chapters.map((item, i) => made.get(i) ?? (JSON.parse(usedBy.get(item.key)?.body ?? "null") as ChapterView));
  return { chapters: list };
}
