// An imported comment's anchor, made at import as a live comment's is made in the editor: Yjs relative positions in
// the scene's shared doc (app/features/co-writing/comment-anchors.ts), so its words are highlighted at once in the
// Manuscript, a card's read view and the co-writing editor. The scene's doc is started (and stored) by its Durable
// Object, the same doc every editor joins; the words the file's comment covered (its quote) are found in that doc's
// text and their start and end kept as the comment's anchor. A quote not found (or a doc that cannot be reached)
// leaves the comment on the whole scene, as before.
import { and, eq, isNotNull, isNull } from "drizzle-orm";
import * as Y from "yjs";
import type { Db } from "../../../db/client";
import { DocFields } from "../../../db/domain/rich-text";
import { comments, events } from "../../../db/schema";
import { readDocState } from "../../lib/room";

type Anchor = { from: string; to: string };

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** The doc's text as read: every character with its place (a text and an index in it); blocks apart by a space. */
function textOf(fragment: Y.XmlFragment) {
  let text = "";
  const places: ({ type: Y.XmlText; index: number } | null)[] = [];
  const space = () => {
    if (text.length > 0 && !text.endsWith(" ")) {
      text += " ";
      places.push(null);
    }
  };
  const walk = (node: Y.XmlFragment | Y.XmlElement) => {
    for (const child of node.toArray()) {
      if (child instanceof Y.XmlText) {
        let index = 0;
        for (const op of child.toDelta() as { insert: unknown }[]) {
          if (typeof op.insert !== "string") {
            index++;
            space();
            continue;
          }
          for (const ch of op.insert) {
            // Whitespace folds to one space, as the quote's did.
            if (/\s/.test(ch)) space();
            else {
              text += ch;
              places.push({ type: child, index });
            }
            index += ch.length;
          }
        }
      } else if (child instanceof Y.XmlElement) {
        // A block (paragraph, heading, list item) or a hard break: the quote joined them with a space.
        space();
        walk(child);
        space();
      }
    }
  };
  walk(fragment);
  return { text, places };
}

/** The words around a quote where the reader saw it: text just before it and just after it (each may be absent). */
export type QuoteContext = { prefix?: string | null; suffix?: string | null };

const fold = (text: string) => text.replace(/\s+/g, " ");

/** How many characters `a` and `b` share at their ends (`fromEnd`) or at their starts. */
function shared(a: string, b: string, fromEnd: boolean) {
  let n = 0;
  const max = Math.min(a.length, b.length);
  while (n < max && (fromEnd ? a[a.length - 1 - n] === b[b.length - 1 - n] : a[n] === b[n])) n++;
  return n;
}

/**
 * Which occurrence of `wanted` in `text` the context names: the one whose surrounding text matches the most of the
 * given prefix and suffix (the first of equals; the first when no context was given). -1 when there is none.
 */
export function occurrenceOf(text: string, wanted: string, context: QuoteContext = {}) {
  const prefix = fold(context.prefix ?? "").trimStart();
  const suffix = fold(context.suffix ?? "").trimEnd();
  let best = -1;
  let bestScore = -1;
  for (let at = text.indexOf(wanted); at >= 0; at = text.indexOf(wanted, at + 1)) {
    // The doc's text joins blocks by one space; the reader's context may or may not hold that space.
    const before = text.slice(Math.max(0, at - prefix.length - 1), at);
    const after = text.slice(at + wanted.length, at + wanted.length + suffix.length + 1);
    const score =
      Math.max(shared(before, prefix, true), shared(before.trimEnd(), prefix.trimEnd(), true)) +
      Math.max(shared(after, suffix, false), shared(after.trimStart(), suffix.trimStart(), false));
    if (score > bestScore) {
      best = at;
      bestScore = score;
    }
  }
  return best;
}

/** Markdown's emphasis marks, which a reader's plain text of the scene may hold and the doc's text does not. */
const unmark = (text: string) => text.replace(/(\*\*|__|~~|[*_`])(?=\S)|(?<=\S)(\*\*|__|~~|[*_`])/g, "");

/**
 * Where `quote` is in the doc's content, as the editor's anchor: relative positions with the association
 * y-tiptap gives a selection's ends. With several occurrences, `context` (the words around it where it was
 * selected) picks one; without, the first. Null when the doc's text does not hold it.
 */
export function anchorOfQuote(doc: Y.Doc, quote: string, context: QuoteContext = {}): Anchor | null {
  const { text, places } = textOf(doc.getXmlFragment(DocFields.content));
  for (const strip of [false, true]) {
    const wanted = fold(strip ? unmark(quote) : quote).trim();
    if (!wanted) return null;
    const around = strip ? { prefix: unmark(context.prefix ?? ""), suffix: unmark(context.suffix ?? "") } : context;
    const at = occurrenceOf(text, wanted, around);
    if (at < 0) continue;
    const first = places[at];
    const last = places[at + wanted.length - 1];
    if (!first || !last) return null;
    const encode = (type: Y.XmlText, index: number) =>
      toBase64(Y.encodeRelativePosition(Y.createRelativePositionFromTypeIndex(type, index, -1)));
    return { from: encode(first.type, first.index), to: encode(last.type, last.index + 1) };
  }
  return null;
}

/** Scenes whose docs are started at a time while their comments are anchored. */
const AT_ONCE = 5;

/**
 * Anchors the new timeline's imported comments (first comments of threads with a quote and no anchor yet) in their
 * scenes' shared docs. Never fails the import: a scene that cannot be anchored keeps its comments on the whole scene.
 */
export async function anchorImportedComments(env: Cloudflare.Env, db: Db, timelineId: number): Promise<number> {
  const rows = await db
    .select({ id: comments.id, eventId: comments.eventId, quote: comments.quote })
    .from(comments)
    .innerJoin(events, eq(events.id, comments.eventId))
    .where(and(eq(events.timelineId, timelineId), isNull(comments.threadId), isNull(comments.anchorFrom), isNotNull(comments.quote)))
    .all();
  const byEvent = new Map<number, { id: number; quote: string }[]>();
  for (const row of rows) {
    if (!row.quote?.trim()) continue;
    byEvent.set(row.eventId, [...(byEvent.get(row.eventId) ?? []), { id: row.id, quote: row.quote }]);
  }
  const anchored: { id: number; anchor: Anchor }[] = [];
  const eventIds = [...byEvent.keys()];
  for (let at = 0; at < eventIds.length; at += AT_ONCE) {
    await Promise.all(
      eventIds.slice(at, at + AT_ONCE).map(async (eventId) => {
        try {
          const state = await readDocState(env, eventId);
          if (!state) return;
          const doc = new Y.Doc();
          Y.applyUpdate(doc, state);
          for (const comment of byEvent.get(eventId) ?? []) {
            const anchor = anchorOfQuote(doc, comment.quote);
            if (anchor) anchored.push({ id: comment.id, anchor });
          }
          doc.destroy();
        } catch (error) {
          console.error("[import] comment anchors failed:", String(error));
        }
      }),
    );
  }
  for (let at = 0; at < anchored.length; at += 50) {
    const updates = anchored
      .slice(at, at + 50)
      .map(({ id, anchor }) => db.update(comments).set({ anchorFrom: anchor.from, anchorTo: anchor.to }).where(eq(comments.id, id)));
    await db.batch(updates as [(typeof updates)[number], ...typeof updates]);
  }
  return anchored.length;
}
