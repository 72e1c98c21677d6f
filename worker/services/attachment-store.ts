import { sql } from "drizzle-orm";

// The pieces of attachments that other services share (kept free of service imports, so events.ts
// and timelines.ts can use them without an import cycle through attachments.ts).

export type AttachmentView = { id: number; filename: string; contentType: string; size: number };

/**
 * An event's attachments' metadata, fetched inside the event's own SELECT (no query per event): a JSON array
 * in upload order, or NULL when there are none (most events: a 1,000-event list then parses nothing).
 */
// Spelled out with an alias: drizzle may print a column unqualified (`"id"`), which inside this subquery would be the file's.
export const eventAttachmentsJson = sql<
  string | null
>`(SELECT json_group_array(json_object('id', f.id, 'filename', f.filename, 'contentType', f.content_type, 'size', f.size)) FROM files f WHERE f.event_id = "events"."id" HAVING count(*) > 0)`;

/**
 * The list out of `eventAttachmentsJson` (our own SQL's JSON, so no shape checks), or a list already parsed
 * (an event passed through twice); NULL or anything else is none.
 */
export function parseAttachments(value: unknown): AttachmentView[] {
  if (Array.isArray(value)) return value as AttachmentView[];
  return typeof value === "string" && value.startsWith("[") ? (JSON.parse(value) as AttachmentView[]) : [];
}

/**
 * Removes objects from the bucket after their rows are gone (R2 takes at most 1,000 keys a call).
 * A failure is logged, never thrown: the rows, which are what anyone can reach, are already deleted.
 */
export async function deleteObjects(bucket: R2Bucket, keys: string[]) {
  for (let i = 0; i < keys.length; i += 1000) {
    try {
      await bucket.delete(keys.slice(i, i + 1000));
    } catch (error) {
      console.error("[files] delete failed:", String(error));
    }
  }
}
