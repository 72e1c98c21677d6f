import { type JSONContent, getSchema } from "@tiptap/core";
import { MarkdownManager } from "@tiptap/markdown";
import StarterKit from "@tiptap/starter-kit";
import { prosemirrorJSONToYXmlFragment, updateYFragment, yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap";
import type * as Y from "yjs";

// The event text's shared schema and its Markdown form (issue 13), used by the co-writing editor in the
// browser and by the EventDoc Durable Object on the server. No DOM: both sides build the same schema.

/** The Y.Doc's parts: the title as plain text, the content as a ProseMirror fragment. */
export const DocFields = { title: "title", content: "content", meta: "meta" } as const;

/**
 * The formatting writers use (bold, italic, headings, lists, quotes, scene breaks as horizontal rules).
 * Undo/redo comes from the Collaboration extension (per writer), so StarterKit's own history is off.
 */
export function richTextExtensions() {
  return [StarterKit.configure({ undoRedo: false, link: false, underline: false, trailingNode: false })];
}

/**
 * Markdown as the rest of the product reads it (cards, API, exports show it as text): markdown syntax is
 * escaped where a literal character would otherwise format, but `&` and `<` stay as typed unless they would
 * read as an entity or a tag ('Tom & Jerry <3' stays as it is).
 */
function plainEntities(encoded: string) {
  return encoded
    .replace(/&lt;(?![a-zA-Z/!?])/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;(?!(?:[a-zA-Z][a-zA-Z0-9]*|#\d+|#x[0-9a-fA-F]+);)/g, "&");
}

type TextEncoder = (text: string, node: JSONContent, parentNode?: JSONContent) => string;

function storyMarkdown() {
  const m = new MarkdownManager({ extensions: richTextExtensions() });
  // The text encoder is private in @tiptap/markdown 3.31; wrapped on this instance only.
  const own = m as unknown as { encodeTextForMarkdown: TextEncoder };
  const encode = own.encodeTextForMarkdown.bind(m);
  own.encodeTextForMarkdown = (text, node, parentNode) => plainEntities(encode(text, node, parentNode));
  return m;
}

let manager: MarkdownManager | null = null;
let schema: ReturnType<typeof getSchema> | null = null;
const markdown = () => {
  manager ??= storyMarkdown();
  return manager;
};
export const richTextSchema = () => {
  schema ??= getSchema(richTextExtensions());
  return schema;
};

export function markdownToJson(md: string): JSONContent {
  return md.trim() === "" ? { type: "doc", content: [{ type: "paragraph" }] } : markdown().parse(md);
}

export function jsonToMarkdown(json: JSONContent): string {
  return markdown().serialize(json).replace(/\s+$/, "");
}

/** The doc's content as Markdown (what D1 stores). */
export function yDocToMarkdown(doc: Y.Doc): string {
  return jsonToMarkdown(yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(DocFields.content)));
}

/** Fills an empty fragment from Markdown (a new doc seeded from D1). */
export function seedFragment(doc: Y.Doc, md: string) {
  prosemirrorJSONToYXmlFragment(richTextSchema(), markdownToJson(md), doc.getXmlFragment(DocFields.content));
}

/**
 * Makes the doc's content equal `md` with the fewest changes (a structural diff, so text others are
 * typing elsewhere in the event survives). Used for REST edits and restores while writers are live.
 */
export function applyMarkdown(doc: Y.Doc, md: string, origin?: unknown) {
  const node = richTextSchema().nodeFromJSON(markdownToJson(md));
  doc.transact(() => {
    // y-tiptap keeps its node↔type mapping here; a fresh one per call is right for a one-off update.
    updateYFragment(doc, doc.getXmlFragment(DocFields.content), node, { mapping: new Map(), isOMark: new Map() });
  }, origin);
}

/** Replaces the title text with the fewest changes (common prefix and suffix kept). */
export function applyPlainText(text: Y.Text, next: string) {
  const current = text.toString();
  if (current === next) return;
  let start = 0;
  while (start < current.length && start < next.length && current[start] === next[start]) start++;
  let end = 0;
  while (end < current.length - start && end < next.length - start && current[current.length - 1 - end] === next[next.length - 1 - end]) {
    end++;
  }
  text.doc?.transact(() => {
    if (current.length - start - end > 0) text.delete(start, current.length - start - end);
    if (next.length - start - end > 0) text.insert(start, next.slice(start, next.length - end));
  });
}
