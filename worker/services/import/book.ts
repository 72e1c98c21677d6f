// What a manuscript (Word, ODT) becomes: its paragraphs, each with its formatting, cut into chapters and scenes by
// the rules of IMPORT.md, as the StoryWeave document every import builds (db/domain/transfer/document.ts). The
// text of each scene goes through the editor's own Markdown writer, so emphasis and escaping are the editor's.
import type { JSONContent } from "@tiptap/core";
import { limits } from "../../../db/domain/rules";
import { chapterLimits } from "../../../db/domain/validation-chapters";
import { serializeMarkdown } from "../../../db/domain/markdown-serialize";
import { isChapterLine, isSceneBreak } from "../../../db/domain/transfer/book-lines";
import { type TimelineDocument, emptyEvent, newDocument } from "../../../db/domain/transfer/document";
import type { SceneComment, SourceComment } from "./comments";

/** One run of text with its emphasis (a paragraph is several). */
export type Run = { text: string; bold?: boolean; italic?: boolean };
/** `comments`: the file's comments anchored in this paragraph. */
export type Paragraph = { role: "title" | "chapter" | "text"; runs: Run[]; comments?: SourceComment[] };

/** A title cut to the product's limit, its whitespace (line breaks too) folded to single spaces. */
export const fitTitle = (text: string, max: number = limits.eventTitle) => text.replace(/\s+/g, " ").trim().slice(0, max).trim();

const plainOf = (p: Paragraph) => p.runs.map((r) => r.text).join("");

/** Paragraphs as scene text: Markdown with their bold and italic. */
export function markdownOf(paragraphs: Paragraph[]): string {
  const content: JSONContent[] = paragraphs.map((p) => ({
    type: "paragraph",
    content: p.runs
      .filter((r) => r.text)
      .map((r) => {
        const marks = [...(r.bold ? [{ type: "bold" }] : []), ...(r.italic ? [{ type: "italic" }] : [])];
        return { type: "text", text: r.text, ...(marks.length > 0 && { marks }) };
      }),
  }));
  return serializeMarkdown({ type: "doc", content });
}

/** `comments`: the file's comments, each on the scene its anchor is in. */
export type BookResult = { document: TimelineDocument; skipped: string[]; comments: SceneComment[] };

/**
 * Chapters from Heading 1 paragraphs (or, with none in the file, from chapter lines), scenes split at scene
 * breaks; text before the first chapter is front matter and skipped. A scene longer than an event may hold is
 * split at paragraphs. A comment anchored outside any scene (a heading, a break, front matter) goes on the next
 * scene, or the last one when none follows.
 */
export function bookFromParagraphs(input: Paragraph[], title: string): BookResult {
  const doc = newDocument(fitTitle(title, limits.timelineTitle) || "Imported book", null);
  const skipped: string[] = [];
  doc.chapters = [];
  const byHeading = input.some((p) => p.role === "chapter");
  const startsChapter = (p: Paragraph) => (byHeading ? p.role === "chapter" : isChapterLine(plainOf(p))) || p.role === "chapter";
  // A text without any chapter (a short story) is one chapter named as the book, rather than all front matter.
  const paragraphs: Paragraph[] = input.some((p) => startsChapter(p) && plainOf(p).trim())
    ? input
    : [{ role: "chapter", runs: [{ text: doc.timeline.title }] }, ...input];
  let chapter = -1;
  let scene: Paragraph[] = [];
  let sceneNumber = 0;
  let frontMatter = 0;
  const comments: SceneComment[] = [];
  let waiting: SourceComment[] = [];
  const place = (event: number, from: SourceComment[]) => {
    for (const c of from) comments.push({ ...c, event });
  };
  const flush = () => {
    const parts: Paragraph[][] = [[]];
    let size = 0;
    for (const p of scene) {
      const length = plainOf(p).length * 1.1 + 8;
      if (size + length > limits.eventContent * 0.9 && parts[parts.length - 1].length > 0) {
        parts.push([]);
        size = 0;
      }
      parts[parts.length - 1].push(p);
      size += length;
    }
    scene = [];
    for (const part of parts) {
      const content = markdownOf(part);
      const inPart = part.flatMap((p) => p.comments ?? []);
      if (!content.trim()) {
        waiting.push(...inPart);
        continue;
      }
      sceneNumber++;
      const chapterTitle = doc.chapters![chapter].title;
      doc.events.push({ ...emptyEvent(), title: fitTitle(`${chapterTitle} · Scene ${sceneNumber}`), content, chapter });
      place(doc.events.length - 1, [...waiting, ...inPart]);
      waiting = [];
    }
  };
  for (const p of paragraphs) {
    const text = plainOf(p).trim();
    if (p.comments && (p.role === "title" || startsChapter(p) || chapter < 0 || isSceneBreak(text) || !text)) waiting.push(...p.comments);
    if (p.role === "title") continue;
    if (startsChapter(p) && text) {
      if (chapter >= 0) flush();
      doc.chapters.push({ title: fitTitle(text, chapterLimits.title), targetWords: null });
      chapter = doc.chapters.length - 1;
      sceneNumber = 0;
      continue;
    }
    if (chapter < 0) {
      if (text) frontMatter++;
      continue;
    }
    if (isSceneBreak(text)) {
      flush();
      continue;
    }
    if (text) scene.push(p);
  }
  if (chapter >= 0) flush();
  if (doc.events.length > 0) place(doc.events.length - 1, waiting);
  if (frontMatter > 0) skipped.push(`${frontMatter} paragraph${frontMatter === 1 ? "" : "s"} before the first chapter (front matter)`);
  // One scene alone in its chapter is titled as the chapter.
  const perChapter = new Map<number, number>();
  for (const e of doc.events) perChapter.set(e.chapter ?? -1, (perChapter.get(e.chapter ?? -1) ?? 0) + 1);
  for (const e of doc.events) if (perChapter.get(e.chapter ?? -1) === 1) e.title = doc.chapters[e.chapter!].title;
  return { document: doc, skipped, comments };
}
