// The shared doc's text as D1 holds it: Markdown out of the doc, checked with the event schemas, and merges in.
import { applyPatch, structuredPatch } from "diff";
import * as Y from "yjs";
import { DocFields, applyMarkdown, applyPlainText, checkBlocks, yDocToMarkdown } from "../db/domain/rich-text";
import { EventContentSchema, EventTitleSchema, messages } from "../db/domain/validation";

/** Where a change came from when it is not a writer's socket. */
export const Origins = { d1: "d1", rest: "rest", server: "server" } as const;

/** What a writer is told when a Save could not be written (the doc keeps the text). */
export const SAVE_FAILED = "Failed to update event";

/**
 * Three-way merge of Markdown by lines (paragraphs): the change from `base` to `theirs` applied to `live`.
 * When it does not apply (the same lines changed on both sides), `theirs` wins; the writers' text is
 * already a version by then, so it can be restored.
 */
export function mergeText(base: string, theirs: string, live: string) {
  if (base === live) return theirs;
  const merged = applyPatch(live, structuredPatch("", "", base, theirs), { fuzzFactor: 1 });
  return merged === false ? theirs : merged;
}

/**
 * A doc stored before writers' updates were checked may hold blocks the editor's schema refuses (which made
 * every save throw): they go. D1 never had them; everything valid stays.
 */
export function dropInvalidBlocks(doc: Y.Doc) {
  const fragment = doc.getXmlFragment(DocFields.content);
  const blocks = fragment.toArray();
  try {
    checkBlocks(blocks);
    return;
  } catch {
    // Found below, block by block.
  }
  doc.transact(() => {
    for (let i = blocks.length - 1; i >= 0; i--) {
      try {
        checkBlocks([blocks[i]]);
      } catch {
        fragment.delete(i, 1);
      }
    }
  }, Origins.d1);
}

/**
 * The doc's title and content checked with the event schemas: each valid part (trimmed), and why the rest cannot
 * reach D1 (content that does not convert, an empty part, a part over its limit), as the writers are told.
 */
export function checkText(doc: Y.Doc): { title?: string; content?: string; problem: string | null } {
  const title = EventTitleSchema.safeParse(doc.getText(DocFields.title).toString());
  const markdown = markdownOf(doc);
  // Never throws on a doc state: content that does not convert keeps D1's text and says so.
  if (markdown === undefined) return { title: title.data, problem: SAVE_FAILED };
  const content = EventContentSchema.safeParse(markdown);
  const issues = [title.error?.issues[0]?.message, content.error?.issues[0]?.message].filter((m) => m !== undefined);
  const problem = issues.includes(messages.eventFields) ? messages.eventFields : (issues[0] ?? null);
  return { title: title.data, content: content.data, problem };
}

/** The doc's content as Markdown, or undefined when it does not convert (never written over D1's text). */
export function markdownOf(doc: Y.Doc) {
  try {
    return yDocToMarkdown(doc);
  } catch (error) {
    console.error("[doc] content does not convert:", String(error));
    return undefined;
  }
}

/** Sets the doc's title and content (each when given) as the smallest change from what it holds. */
export function applyText(doc: Y.Doc, title: string | undefined, content: string | undefined, origin: string) {
  doc.transact(() => {
    if (title !== undefined) applyPlainText(doc.getText(DocFields.title), title);
    if (content !== undefined) applyMarkdown(doc, content, origin);
  }, origin);
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/**
 * The writers' clocks in the doc (for `meta.saved`: D1's version and the clocks it holds). The doc's own clock is
 * left out, so that writing `saved` (a change of the doc, which schedules another save) does not change `saved` again.
 */
export function writersClocks(doc: Y.Doc): string {
  const clocks = Y.decodeStateVector(Y.encodeStateVector(doc));
  clocks.delete(doc.clientID);
  return toBase64(Y.encodeStateVector(clocks));
}
