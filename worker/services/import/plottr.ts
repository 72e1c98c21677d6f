// A Plottr .pltr file (JSON) as StoryWeave documents: each book a timeline (several: a series, in book order).
// A book's chapters are the leaves of its beat tree in order (older files: `chapters`, or the oldest `scenes`);
// cards are scenes in their beat's chapter and their line's plotline; lines are plotlines; characters and places
// (the book's, or everyone's when they name no book) are codex entries, a card's characters and places its links.
import type { JSONContent } from "@tiptap/core";
import { entityLimits, limits, nextEntityColor } from "../../../db/domain/rules";
import { serializeMarkdown } from "../../../db/domain/markdown-serialize";
import { type TimelineDocument, codexOf, emptyEvent, newDocument } from "../../../db/domain/transfer/document";
import { chapterLimits } from "../../../db/domain/validation-chapters";
import { fitTitle } from "./book";
import { hexColor } from "./css-colors";
import { BadFile } from "./zip-guard";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const num = (v: unknown) => (typeof v === "number" ? v : typeof v === "string" && v.trim() !== "" ? Number(v) : Number.NaN);
const str = (v: unknown) => (typeof v === "string" ? v : "");
const byPosition = (a: Obj, b: Obj) => (num(a.position) || 0) - (num(b.position) || 0);

/** Whether parsed JSON is a Plottr file rather than a StoryWeave timeline (told apart by its keys). */
export function isPlottr(root: unknown): root is Obj {
  return (
    isObj(root) &&
    root.format === undefined &&
    "cards" in root &&
    "lines" in root &&
    ("beats" in root || "chapters" in root || "scenes" in root)
  );
}

/** Plottr's rich text (Slate nodes) or plain text as the editor's JSON, then Markdown. */
function slateToMarkdown(value: unknown): string {
  if (typeof value === "string")
    return serializeMarkdown({ type: "doc", content: value.split(/\n{2,}/).map((p) => paragraph([{ text: p }])) });
  const block = (node: Obj): JSONContent => {
    const type = str(node.type);
    const children = list(node.children);
    if (type === "bulleted-list" || type === "numbered-list") {
      return {
        type: type === "bulleted-list" ? "bulletList" : "orderedList",
        content: children.map((item) => ({ type: "listItem", content: [paragraph(leaves(item))] })),
      };
    }
    return paragraph(leaves(node));
  };
  return serializeMarkdown({ type: "doc", content: list(value).map(block) });
}

function leaves(node: Obj, out: Obj[] = []): Obj[] {
  if (typeof node.text === "string") out.push(node);
  for (const child of list(node.children)) leaves(child, out);
  return out;
}

function paragraph(runs: Obj[]): JSONContent {
  return {
    type: "paragraph",
    content: runs
      .filter((r) => str(r.text))
      .map((r) => {
        const marks = [...(r.bold ? [{ type: "bold" }] : []), ...(r.italic ? [{ type: "italic" }] : [])];
        return { type: "text", text: str(r.text), ...(marks.length > 0 && { marks }) };
      }),
  };
}

type Chapter = { id: number; title: string };

/** The book's chapters in order: the leaves of its beat tree, or the older files' chapters/scenes. */
function chaptersOf(root: Obj, bookId: number | null): Chapter[] {
  const levels = isObj(root.hierarchyLevels) ? root.hierarchyLevels : {};
  const leafName = str((levels["0"] as Obj | undefined)?.name) || "Chapter";
  const named = (raw: Obj, i: number): Chapter => {
    const title = str(raw.title).trim();
    return { id: num(raw.id), title: !title || title === "auto" ? `${leafName} ${i + 1}` : title };
  };
  const beats = isObj(root.beats) && bookId !== null ? root.beats[String(bookId)] : undefined;
  if (isObj(beats) && isObj(beats.index)) {
    const index = beats.index as Obj;
    const children = isObj(beats.children) ? beats.children : {};
    const kids = (id: string) =>
      (Array.isArray(children[id]) ? (children[id] as unknown[]) : [])
        .map((k) => index[String(k)])
        .filter(isObj)
        .sort(byPosition);
    const leavesOut: Obj[] = [];
    const walk = (id: string, depth: number) => {
      if (depth > 10) return;
      for (const beat of kids(id)) {
        const below = kids(String(beat.id));
        if (below.length === 0) leavesOut.push(beat);
        else walk(String(beat.id), depth + 1);
      }
    };
    walk("null", 0);
    return leavesOut.map(named);
  }
  const old = list(root.chapters).length > 0 ? list(root.chapters) : list(root.scenes);
  return old
    .filter((c) => bookId === null || c.bookId === undefined || c.bookId === null || num(c.bookId) === bookId)
    .sort(byPosition)
    .map((c, i) => ({ ...named(c, i), title: str(c.title).trim() && str(c.title) !== "auto" ? str(c.title).trim() : `Chapter ${i + 1}` }));
}

const inBook = (item: Obj, bookId: number | null) => {
  const ids = Array.isArray(item.bookIds) ? item.bookIds.map(num) : [];
  return bookId === null || ids.length === 0 || ids.includes(bookId);
};

function bookDocument(root: Obj, bookId: number | null, title: string, skipped: string[]): TimelineDocument {
  const doc = newDocument(fitTitle(title, limits.timelineTitle) || "Imported book", null);
  const addEntity = codexOf(doc);
  const characters = new Map<number, string>();
  const places = new Map<number, string>();
  for (const [kind, source, names] of [
    ["character", root.characters, characters],
    ["place", root.places, places],
  ] as const) {
    for (const item of list(source).filter((i) => inBook(i, bookId))) {
      const name = fitTitle(str(item.name), entityLimits.name);
      if (!name) continue;
      const stored = addEntity(name, kind);
      const entry = doc.entities.find((e) => e.name === stored)!;
      if (!entry.description) entry.description = str(item.description).slice(0, 10_000);
      // Each entry its own colour, as entries made in the app.
      entry.color = nextEntityColor(
        kind,
        doc.entities.filter((e) => e !== entry).map((e) => e.color),
      );
      names.set(num(item.id), stored);
    }
  }
  const chapters = chaptersOf(root, bookId);
  doc.chapters = chapters.map((c) => ({ title: fitTitle(c.title, chapterLimits.title), targetWords: null }));
  const chapterOf = new Map(chapters.map((c, i) => [c.id, i]));
  const lines = list(root.lines)
    .filter((l) => bookId === null || l.bookId === undefined || l.bookId === null || num(l.bookId) === bookId)
    .sort(byPosition);
  doc.plotlines = lines.map((l) => ({ title: fitTitle(str(l.title) || "Plotline", 100), color: hexColor(l.color) ?? "#6cace4" }));
  const lineIndex = new Map(lines.map((l, i) => [num(l.id), i]));
  const cards = list(root.cards)
    .map((card) => ({ card, chapter: chapterOf.get(num(card.beatId ?? card.chapterId ?? card.sceneId)) }))
    .filter((c): c is { card: Obj; chapter: number } => c.chapter !== undefined)
    .sort(
      (a, b) =>
        a.chapter - b.chapter ||
        (lineIndex.get(num(a.card.lineId)) ?? 0) - (lineIndex.get(num(b.card.lineId)) ?? 0) ||
        (num(a.card.positionInBeat ?? a.card.positionInChapter ?? a.card.position) || 0) -
          (num(b.card.positionInBeat ?? b.card.positionInChapter ?? b.card.position) || 0),
    );
  for (const { card, chapter } of cards) {
    const event = {
      ...emptyEvent(),
      title: fitTitle(str(card.title)) || "Untitled card",
      content: slateToMarkdown(card.description),
      chapter,
    };
    const line = lineIndex.get(num(card.lineId));
    if (line !== undefined) event.plotlines = [line];
    for (const [ids, names] of [
      [card.characters, characters],
      [card.places, places],
    ] as const) {
      for (const id of Array.isArray(ids) ? ids : []) {
        const name = names.get(num(id));
        if (name && !event.entities.includes(name)) event.entities.push(name);
      }
    }
    doc.events.push(event);
  }
  if (doc.plotlines.length === 0) delete doc.plotlines;
  if (doc.events.length === 0) skipped.push(`“${doc.timeline.title}”: no cards`);
  return doc;
}

/** Every book of the file, in book order; cards of the series' own beats are left out (and said so). */
export function readPlottr(root: Obj, fallbackTitle: string): { documents: TimelineDocument[]; skipped: string[]; seriesTitle?: string } {
  const skipped: string[] = [];
  const books = isObj(root.books) ? root.books : {};
  const order = (Array.isArray(books.allIds) ? books.allIds : Object.keys(books).filter((k) => k !== "allIds")).map(num);
  const documents = order.flatMap((id) => {
    const book = books[String(id)];
    if (!isObj(book)) return [];
    return [bookDocument(root, id, str(book.title) || `Book ${id}`, skipped)];
  });
  if (documents.length === 0) {
    const series = isObj(root.series) ? str(root.series.name) : "";
    documents.push(bookDocument(root, null, str(root.storyName) || series || fallbackTitle, skipped));
  }
  const seriesCards = list(root.cards).filter(
    (c) =>
      c.bookId === "series" ||
      (isObj(root.beats) &&
        isObj(root.beats.series) &&
        isObj((root.beats.series as Obj).index) &&
        String(c.beatId) in ((root.beats.series as Obj).index as Obj)),
  ).length;
  if (seriesCards > 0) skipped.push(`${seriesCards} series-level card${seriesCards === 1 ? "" : "s"}`);
  const notes = list(root.notes).length;
  if (notes > 0) skipped.push(`${notes} note${notes === 1 ? "" : "s"}`);
  if (documents.every((d) => d.events.length === 0)) throw new BadFile("it holds no cards");
  const seriesTitle = isObj(root.series) ? fitTitle(str(root.series.name), limits.timelineTitle) : "";
  return { documents, skipped, ...(seriesTitle && { seriesTitle }) };
}
