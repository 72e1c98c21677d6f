import { Extension, type JSONContent, getSchema } from "@tiptap/core";
import { MarkdownManager } from "@tiptap/markdown";
import StarterKit from "@tiptap/starter-kit";
import { prosemirrorJSONToYXmlFragment, updateYFragment, yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap";
import * as Y from "yjs";
import { MAX_NESTING, PARSE_BUDGET, emphasisCost, markerDepthOf, nestingOf, plainLinesJson } from "./markdown-guard";
import { serializeMarkdown } from "./markdown-serialize";
import { suggestionMarkExtensions } from "./suggestion-marks";

// The event text's shared schema and its Markdown form, used by the co-writing editor in the
// browser and by the EventDoc Durable Object on the server. No DOM: both sides build the same schema.

/** The Y.Doc's parts: the title as plain text, the content as a ProseMirror fragment. */
export const DocFields = { title: "title", content: "content", meta: "meta" } as const;

/**
 * The keys of the doc's `meta` map. The server writes `epoch` (the doc's identity), `saved` (what D1 holds:
 * its version and the state vector it was written from), `problem` (why the text is not saved, or null) and
 * `reply` (the answer to a Save); a writer writes only `save`, its request for a version now.
 */
export const MetaKeys = { epoch: "epoch", saved: "saved", problem: "problem", reply: "reply", save: "save" } as const;
export type SavedMeta = { version: number; sv: string };
export type SaveRequest = { id: string };
export type SaveReply = { id: string; version: number } | { id: string; error: string };

export const isSaveRequest = (value: unknown): value is SaveRequest =>
  typeof value === "object" &&
  value !== null &&
  Object.keys(value).length === 1 &&
  typeof (value as SaveRequest).id === "string" &&
  /^[\w-]{1,64}$/.test((value as SaveRequest).id);

/**
 * The formatting writers use (bold, italic, headings, lists, quotes, scene breaks as horizontal rules).
 * Undo/redo comes from the Collaboration extension (per writer), so StarterKit's own history is off. Suggested
 * insertions and deletions are marks (suggestions.ts); `suggestionColor` gives them their author's colour.
 */
export function richTextExtensions(suggestionColor?: (userId: number) => string) {
  return [
    StarterKit.configure({ undoRedo: false, link: false, underline: false, trailingNode: false }),
    SuggestedBlocks,
    ...suggestionMarkExtensions(suggestionColor),
  ];
}

/** Suggested blocks carry the suggestion marks too (the editor's copy only: the shared doc keeps text marks). */
const SuggestedBlocks = Extension.create({
  name: "suggestedBlocks",
  extendNodeSchema: (extension) => (extension.name === "doc" ? { marks: "insertion modification deletion" } : {}),
});

/** The editor's Markdown reader (the same in the browser and on the server). */
const storyMarkdown = () => new MarkdownManager({ extensions: richTextExtensions() });

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

/**
 * Stored Markdown as the editor's document. Text the parser cannot take (emphasis markers that never close by the
 * thousand, blocks nested past what the shared doc accepts) is read as plain lines (see markdown-guard.ts).
 */
export function markdownToJson(md: string): JSONContent {
  if (md.trim() === "") return { type: "doc", content: [{ type: "paragraph" }] };
  if (emphasisCost(md) > PARSE_BUDGET || markerDepthOf(md) > MAX_NESTING) return plainLinesJson(md);
  let json: JSONContent;
  try {
    json = markdown().parse(md);
  } catch (error) {
    // Nesting some thousand deep overflows the parser's stack.
    if (error instanceof RangeError) return plainLinesJson(md);
    throw error;
  }
  return nestingOf(json) > MAX_NESTING ? plainLinesJson(md) : json;
}

/** Plain CommonMark that reads back as the same document (see markdown-serialize.ts). */
export function jsonToMarkdown(json: JSONContent): string {
  return serializeMarkdown(json);
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

type NodeJson = { type?: unknown; attrs?: unknown; content?: unknown; marks?: unknown; text?: unknown };

/** Attribute values a node may carry beyond its schema's (which checks names only): what Markdown can say. */
const ATTRIBUTE_RULES: Record<string, Record<string, (value: unknown) => boolean>> = {
  heading: { level: (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 6 },
  orderedList: {
    start: (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 999_999_999,
    type: (v) => v === null || (typeof v === "string" && v.length <= 8),
  },
  codeBlock: { language: (v) => v === null || (typeof v === "string" && /^[^\s`]{0,40}$/.test(v)) },
};

function checkNodeJson(json: NodeJson, depth: number) {
  if (depth > 64) throw new RangeError("Content nested too deeply");
  const type = typeof json.type === "string" ? richTextSchema().nodes[json.type] : undefined;
  if (!type) throw new RangeError(`Unknown node type ${String(json.type)}`);
  if (json.attrs !== undefined) {
    if (typeof json.attrs !== "object" || json.attrs === null) throw new RangeError("Invalid attributes");
    for (const [name, value] of Object.entries(json.attrs)) {
      const rule = ATTRIBUTE_RULES[type.name]?.[name];
      if (!(name in (type.spec.attrs ?? {})) || !rule?.(value)) throw new RangeError(`Invalid attribute ${name} of ${type.name}`);
    }
  }
  if (Array.isArray(json.content)) for (const child of json.content) checkNodeJson(child as NodeJson, depth + 1);
}

/**
 * Throws unless the doc's content is valid in the editor's schema: known node types and marks, attribute
 * values Markdown can carry (a heading's level 1 to 6), content that fits each node, and Markdown that
 * serializes. The shared doc checks every writer's update with it before applying it.
 */
export function checkContent(doc: Y.Doc) {
  const json = yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(DocFields.content)) as NodeJson;
  // A fragment nobody has written yet (the editor fills it with an empty paragraph).
  if (!Array.isArray(json.content) || json.content.length === 0) return;
  checkNodeJson(json, 0);
  richTextSchema().nodeFromJSON(json).check();
}

/** A top-level block of the content fragment. */
export type ContentBlock = Y.XmlElement | Y.XmlText | Y.XmlHook;

/**
 * `checkContent` for some top-level blocks only (the ones an update touched): copies of them are checked in a
 * scratch doc, so the cost follows the change, not the length of the event.
 */
export function checkBlocks(blocks: ContentBlock[]) {
  if (blocks.length === 0) return;
  const copies = blocks.map((b) => {
    if (b instanceof Y.XmlHook) throw new RangeError("Unknown node type");
    return b.clone();
  });
  const scratch = new Y.Doc();
  scratch.getXmlFragment(DocFields.content).insert(0, copies);
  checkContent(scratch);
}
