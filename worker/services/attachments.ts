import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { ATTACHMENT_MAX_BYTES, ATTACHMENT_QUOTA_BYTES, attachmentMessages, attachmentTypes } from "../../db/domain/rules";
import { type User, events, files, timelineShares, timelines, users } from "../../db/schema";
import { HttpError, badRequest, forbidden, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { type Access, requireRowAccess, accessColumns, callerShare } from "./access";
import { type AttachmentView, deleteObjects } from "./attachment-store";
import { type FileDeps, authorOf } from "./deps";
import { EVENT_NOT_FOUND } from "./events";
import { isPremium } from "./plans";

// Attachments on events: bytes in R2 (`env.FILES`) under an unguessable key, metadata
// in D1 `files`. Upload and delete need edit access to the event's timeline, download read access
// (share links included). Storage counts against the timeline's owner, whoever uploads.

const tooLarge = () => new HttpError(413, attachmentMessages.tooLarge);
const unsupported = () => new HttpError(415, attachmentMessages.unsupported);

/** Declared types that say nothing: the extension and the bytes decide. */
const UNDECLARED = new Set(["", "application/octet-stream"]);
/** Declared types a browser may send for a text file besides its own. */
const TEXT_ALIASES: Record<string, string[]> = {
  "text/markdown": ["text/x-markdown", "text/plain"],
  "text/plain": [],
};

/**
 * A name safe to store and to show: no folders, no control characters, at most 200 characters, and
 * no bidirectional marks or overrides (they make `invoice\u202Efdp.exe` read as `invoiceexe.pdf`).
 */
export function cleanFilename(name: string) {
  const base = name.split(/[\\/]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  const clean = base.replace(/[\u0000-\u001f\u007f"\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim();
  if (clean.length <= 200) return clean;
  const dot = clean.lastIndexOf(".");
  const ext = dot > 0 && clean.length - dot <= 10 ? clean.slice(dot) : "";
  return clean.slice(0, 200 - ext.length) + ext;
}

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) => signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

/** Do the first bytes look like the type the extension names? Text must not be binary (no NUL bytes). */
function bytesMatch(contentType: string, head: Uint8Array) {
  switch (contentType) {
    case "image/png":
      return startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case "image/jpeg":
      return startsWith(head, [0xff, 0xd8, 0xff]);
    case "image/gif":
      return startsWith(head, ascii("GIF87a")) || startsWith(head, ascii("GIF89a"));
    case "image/webp":
      return startsWith(head, ascii("RIFF")) && startsWith(head, ascii("WEBP"), 8);
    case "application/pdf":
      return startsWith(head, ascii("%PDF-"));
    case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
      return startsWith(head, [0x50, 0x4b, 0x03, 0x04]);
    default:
      return contentType.startsWith("text/") && !head.includes(0);
  }
}

/** The stored type of an acceptable file: the extension's type, the declared type agreeing, the bytes matching. */
async function acceptedType(file: File, filename: string) {
  const dot = filename.lastIndexOf(".");
  const ext = dot >= 0 ? filename.slice(dot + 1).toLowerCase() : "";
  const contentType = Object.hasOwn(attachmentTypes, ext) ? attachmentTypes[ext] : undefined;
  if (!contentType) throw unsupported();
  const declared = file.type.split(";")[0].trim().toLowerCase();
  if (!UNDECLARED.has(declared) && declared !== contentType && !(TEXT_ALIASES[contentType] ?? []).includes(declared)) {
    throw unsupported();
  }
  const head = new Uint8Array(await file.slice(0, contentType.startsWith("text/") ? 8192 : 16).arrayBuffer());
  if (!bytesMatch(contentType, head)) throw unsupported();
  return contentType;
}

const quotaOf = (owner: Pick<User, "subscriptionTier" | "subscriptionEndDate">) => {
  const tier = isPremium(owner) ? ("premium" as const) : ("free" as const);
  return { tier, bytes: ATTACHMENT_QUOTA_BYTES[tier] };
};

/** Bytes stored for this owner, as a SQL expression (counted inside the guarded INSERT too). */
const usedBy = (ownerId: number) => sql<number>`(SELECT coalesce(sum(size), 0) FROM files WHERE owner_id = ${ownerId})`;

export const toAttachmentView = (f: AttachmentView): AttachmentView => ({
  id: f.id,
  filename: f.filename,
  contentType: f.contentType,
  size: f.size,
});

/**
 * Stores a file on an event. Checks, in order: access (stranger 404, viewer 403), a file at all (400),
 * size (413), type (415), the owner's storage (403). The row is inserted only while the owner's usage
 * still allows it (checked inside the INSERT, so two uploads at once cannot both slip under the limit);
 * when the row does not land, the object is removed again.
 */
export async function uploadAttachment(
  { db, room, files: bucket }: FileDeps,
  user: User,
  eventId: number,
  file: unknown,
  shareCode?: string | null,
): Promise<AttachmentView> {
  const row = await db
    .select({
      eventTitle: events.title,
      ...accessColumns(user),
      owner: { subscriptionTier: users.subscriptionTier, subscriptionEndDate: users.subscriptionEndDate },
      used: sql<number>`(SELECT coalesce(sum(f.size), 0) FROM files f WHERE f.owner_id = ${timelines.userId})`.mapWith(Number),
    })
    .from(events)
    .innerJoin(timelines, eq(timelines.id, events.timelineId))
    .innerJoin(users, eq(users.id, timelines.userId))
    .leftJoin(timelineShares, callerShare(user, events.timelineId))
    .where(and(eq(events.id, eventId), isNull(events.deletedAt)))
    .get();
  const { row: found } = requireRowAccess(row, user, "collaborator", shareCode, EVENT_NOT_FOUND);

  if (!(file instanceof File) || file.size === 0) throw badRequest(attachmentMessages.missing);
  if (file.size > ATTACHMENT_MAX_BYTES) throw tooLarge();
  const filename = cleanFilename(file.name);
  const contentType = await acceptedType(file, filename);
  const quota = quotaOf(found.owner);
  if (found.used + file.size > quota.bytes) throw forbidden(attachmentMessages.quota(quota.tier));

  const timelineId = found.timeline.id;
  const ownerId = found.timeline.userId;
  const r2Key = `t/${timelineId}/e/${eventId}/${crypto.randomUUID()}`;
  await bucket.put(r2Key, await file.arrayBuffer(), { httpMetadata: { contentType } });

  let inserted: { id: number } | undefined;
  try {
    const rows = await db.all<{ id: number }>(sql`
      INSERT INTO files (event_id, timeline_id, owner_id, uploaded_by, filename, content_type, size, r2_key, created_at)
      SELECT ${eventId}, ${timelineId}, ${ownerId}, ${user.id}, ${filename}, ${contentType}, ${file.size}, ${r2Key}, ${nowIso()}
      WHERE EXISTS (SELECT 1 FROM events WHERE id = ${eventId} AND deleted_at IS NULL) AND ${usedBy(ownerId)} + ${file.size} <= ${quota.bytes}
      RETURNING id`);
    inserted = rows[0];
  } finally {
    if (!inserted) await deleteObjects(bucket, [r2Key]);
  }
  if (!inserted) {
    // Deleted meanwhile, or another upload took the last of the storage.
    const still = await db
      .select({ id: events.id })
      .from(events)
      .where(and(eq(events.id, eventId), isNull(events.deletedAt)))
      .get();
    if (!still) throw notFound(EVENT_NOT_FOUND);
    throw forbidden(attachmentMessages.quota(quota.tier));
  }
  room(timelineId, { action: "edited", by: authorOf(user), subject: found.eventTitle });
  return { id: inserted.id, filename, contentType, size: file.size };
}

/** The attachment's row with the caller's access to its timeline and its event's title. One query. */
async function loadAttachment(db: Db, user: User, attachmentId: number, need: Exclude<Access, "none">, shareCode?: string | null) {
  const row = await db
    .select({
      file: files,
      eventTitle: events.title,
      ...accessColumns(user),
    })
    .from(files)
    .innerJoin(events, eq(events.id, files.eventId))
    .innerJoin(timelines, eq(timelines.id, files.timelineId))
    .leftJoin(timelineShares, callerShare(user, files.timelineId))
    .where(and(eq(files.id, attachmentId), isNull(events.deletedAt)))
    .get();
  return requireRowAccess(row, user, need, shareCode, attachmentMessages.notFound).row;
}

/** The bytes and how to serve them, for anyone who may read the timeline. */
export async function getAttachment(bucket: R2Bucket, db: Db, user: User, attachmentId: number, shareCode?: string | null) {
  const { file } = await loadAttachment(db, user, attachmentId, "viewer", shareCode);
  const object = await bucket.get(file.r2Key);
  if (!object) throw notFound(attachmentMessages.notFound);
  return { attachment: toAttachmentView(file), body: object.body };
}

/** Removes the row, then the bytes; collaborators' cards update through the room. */
export async function deleteAttachment({ db, room, files: bucket }: FileDeps, user: User, attachmentId: number, shareCode?: string | null) {
  const { file, eventTitle } = await loadAttachment(db, user, attachmentId, "collaborator", shareCode);
  await db.delete(files).where(eq(files.id, attachmentId));
  await deleteObjects(bucket, [file.r2Key]);
  room(file.timelineId, { action: "edited", by: authorOf(user), subject: eventTitle });
  return { success: true };
}

/**
 * `Content-Disposition` for a download: images inline, anything else as an attachment. The quoted name
 * is ASCII only; a name with other characters also goes as `filename*=UTF-8''…` (RFC 6266).
 */
export function contentDisposition(attachment: Pick<AttachmentView, "filename" | "contentType">) {
  const kind = attachment.contentType.startsWith("image/") ? "inline" : "attachment";
  const fallback = attachment.filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const plain = fallback === attachment.filename;
  const encoded = encodeURIComponent(attachment.filename).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return plain ? `${kind}; filename="${fallback}"` : `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
