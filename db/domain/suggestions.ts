import type { JSONContent } from "@tiptap/core";

// Suggested edits: tracked insertions and deletions kept as marks in the shared doc (the marks of
// @handlewithcare/prosemirror-suggest-changes, which the editor uses to make them). Each mark's id says who
// suggested it and when. Until a writer accepts them, the saved text is the text before them.

export const SuggestionMarks = { insertion: "insertion", deletion: "deletion", modification: "modification" } as const;
const SUGGESTION_TYPES = new Set<string>(Object.values(SuggestionMarks));

/** A suggestion's id: `s:<userId>:<time in ms>:<random>:<name>` (ids group a suggestion's parts). */
export function suggestionId(userId: number, name: string, now = Date.now()) {
  const random = Math.random().toString(36).slice(2, 8);
  return `s:${userId}:${now}:${random}:${name.slice(0, 60)}`;
}

export type SuggestionAuthor = { userId: number | null; name: string; at: number | null };

/** Who made a suggestion and when, read from its id (anything else: an unknown author). */
export function suggestionAuthor(id: unknown): SuggestionAuthor {
  const parts = typeof id === "string" ? id.split(":") : [];
  if (parts.length < 5 || parts[0] !== "s") return { userId: null, name: "Someone", at: null };
  const userId = Number(parts[1]);
  const at = Number(parts[2]);
  return {
    userId: Number.isSafeInteger(userId) ? userId : null,
    name: parts.slice(4).join(":").slice(0, 60) || "Someone",
    at: Number.isFinite(at) && at > 0 ? at : null,
  };
}

const markTypes = (node: JSONContent) => (node.marks ?? []).map((m) => m?.type);
const isInserted = (node: JSONContent) => markTypes(node).includes(SuggestionMarks.insertion);

/**
 * The document as it was before its pending suggestions: inserted text left out, deleted text kept as plain
 * text. A block whose content was all suggested (a new paragraph) is left out.
 */
export function withoutSuggestions(node: JSONContent): JSONContent {
  if (!Array.isArray(node.content)) return node;
  const content: JSONContent[] = [];
  for (const child of node.content) {
    if (!child || typeof child !== "object") continue;
    if (child.type === "text") {
      if (isInserted(child)) continue;
      const marks = child.marks?.filter((m) => !SUGGESTION_TYPES.has(m?.type));
      content.push(marks && marks.length !== child.marks?.length ? { ...child, marks } : child);
      continue;
    }
    const inner = withoutSuggestions(child);
    // A paragraph (or list item) all of whose text was suggested is left out whole.
    const emptied = (child.content?.length ?? 0) > 0 && (inner.content?.length ?? 0) === 0;
    if (emptied || (isInserted(child) && !(inner.content ?? []).some((c) => c.type === "text"))) continue;
    content.push(inner);
  }
  return { ...node, content };
}

export type Suggestion = {
  id: string;
  /**
   * What it does: an insertion, a deletion, a replacement (a deletion and an insertion made together), or a change
   * of formatting only (the same words deleted and inserted with other marks, as the editor tracks bold or italic).
   */
  kind: "insertion" | "deletion" | "replacement" | "format";
  /** The words it inserts (a deletion: the words it deletes). */
  text: string;
  /** A replacement: the words it replaces. */
  replaced?: string;
  /** A format change: the formatting it adds and removes ("bold", "italic", …). */
  added?: string[];
  removed?: string[];
} & SuggestionAuthor;

type Part = { text: string; marks: Set<string> };

const markNames: Record<string, string> = { bold: "bold", italic: "italic", strike: "struck through", code: "code", link: "a link" };
const named = (types: string[]) => types.map((t) => markNames[t] ?? t);

/** The document's pending suggestions in reading order, one per id. */
export function listSuggestions(doc: JSONContent): Suggestion[] {
  const found = new Map<string, { insertion?: Part; deletion?: Part }>();
  const walk = (node: JSONContent) => {
    for (const mark of node.marks ?? []) {
      const kind = mark?.type;
      if (kind !== SuggestionMarks.insertion && kind !== SuggestionMarks.deletion) continue;
      const id = String(mark.attrs?.id ?? "");
      const parts = found.get(id) ?? {};
      const part = parts[kind] ?? { text: "", marks: new Set<string>() };
      part.text += (node.text ?? "").replaceAll("\u200B", "");
      for (const other of node.marks ?? []) if (other?.type && !SUGGESTION_TYPES.has(other.type)) part.marks.add(other.type);
      parts[kind] = part;
      found.set(id, parts);
    }
    for (const child of node.content ?? []) walk(child);
  };
  walk(doc);
  return [...found.entries()].map(([id, { insertion, deletion }]) => {
    const author = suggestionAuthor(id);
    if (insertion && deletion) {
      if (insertion.text === deletion.text) {
        const added = named([...insertion.marks].filter((m) => !deletion.marks.has(m)));
        const removed = named([...deletion.marks].filter((m) => !insertion.marks.has(m)));
        return { id, kind: "format" as const, text: insertion.text, added, removed, ...author };
      }
      return { id, kind: "replacement" as const, text: insertion.text, replaced: deletion.text, ...author };
    }
    const only = insertion ?? deletion;
    return { id, kind: insertion ? ("insertion" as const) : ("deletion" as const), text: only?.text ?? "", ...author };
  });
}

const quoted = (text: string) => `“${text.trim() || text}”`;

/** What a suggestion does, in a few words: 'Insert “old”', 'Replace “rang” with “tolled”', 'Make “bell” bold'. */
export function describeSuggestion(s: Suggestion) {
  if (s.kind === "insertion") return `Insert ${quoted(s.text)}`;
  if (s.kind === "deletion") return `Delete ${quoted(s.text)}`;
  if (s.kind === "replacement") return `Replace ${quoted(s.replaced ?? "")} with ${quoted(s.text)}`;
  const changes = [...(s.added ?? []), ...(s.removed ?? []).map((m) => `not ${m}`)];
  return changes.length ? `Make ${quoted(s.text)} ${changes.join(", ")}` : `Format ${quoted(s.text)}`;
}

/**
 * The suggestions in `after` that were not in `before` (by id), made by someone other than `ownerId`: what a
 * `suggestion` notification to the scene's owner is about (the doc's server can call it when it saves).
 */
export function newSuggestionsForOwner(before: JSONContent, after: JSONContent, ownerId: number): Suggestion[] {
  const known = new Set(listSuggestions(before).map((s) => s.id));
  const fresh = new Map<string, Suggestion>();
  for (const s of listSuggestions(after)) {
    if (!known.has(s.id) && s.userId !== null && s.userId !== ownerId && !fresh.has(s.id)) fresh.set(s.id, s);
  }
  return [...fresh.values()];
}
