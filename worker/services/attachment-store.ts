import { sql } from "drizzle-orm";

// The pieces of attachments that other services share (kept free of service imports, so events.ts
// and timelines.ts can use them without an import cycle through attachments.ts).

export type AttachmentView = { id: number; filename: string; contentType: string; size: number };

/**
 * An event's attachments' metadata, fetched inside the event's own SELECT (no query per event):
 * a JSON array in upload order (the event index walks them by id), `[]` for most events.
 */
// Spelled out with an alias: drizzle may print a column unqualified (`"id"`), which inside this subquery would be the file's.
export const eventAttachmentsJson = sql<string>`(SELECT json_group_array(json_object('id', f.id, 'filename', f.filename, 'contentType', f.content_type, 'size', f.size)) FROM files f WHERE f.event_id = "events"."id")`;

/** The metadata list out of `eventAttachmentsJson` (or an already parsed array); anything else is no attachments. */
export function parseAttachments(value: unknown): AttachmentView[] {
  let list: unknown = value;
  if (typeof value === "string") {
    try {
      list = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((a) => {
    if (typeof a !== "object" || a === null) return [];
    const { id, filename, contentType, size } = a as Record<string, unknown>;
    return typeof id === "number" && typeof filename === "string"
      ? [{ id, filename, contentType: String(contentType ?? ""), size: Number(size) || 0 }]
      : [];
  });
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
