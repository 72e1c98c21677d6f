// A yWriter 7 project (.yw7, XML) as a StoryWeave document: its used chapters (Type/ChapterType 0) in order with
// their used scenes (Type 0), `[i]`/`[b]` as emphasis and other codes dropped; characters, locations and items as
// codex entries (character, place, thing); a scene's first character is its point of view, its characters,
// locations and items its links, a specific date its story date.
import type { JSONContent } from "@tiptap/core";
import { type EntityKind, entityLimits, limits, nextEntityColor } from "../../../db/domain/rules";
import { serializeMarkdown } from "../../../db/domain/markdown-serialize";
import { type TimelineDocument, type TransferEvent, emptyEvent, newDocument } from "../../../db/domain/transfer/document";
import { chapterLimits } from "../../../db/domain/validation-chapters";
import { fitTitle } from "./book";
import { type XmlElement, childNamed, elementsOf, parseXml, textOf } from "./xml-guard";
import { BadFile } from "./zip-guard";

const field = (node: XmlElement | undefined, name: string) => (node ? textOf(childNamed(node, name) ?? "").trim() : "");
const ids = (node: XmlElement, group: string, item: string) =>
  elementsOf(childNamed(node, group) ?? { name: "", attrs: {}, children: [] })
    .filter((c) => c.name === item)
    .map((c) => textOf(c).trim());
/** yWriter marks a chapter or scene left out of the book with Unused (-1 or 1). */
const unused = (node: XmlElement) => ["-1", "1", "true"].includes(field(node, "Unused"));
const isNormal = (node: XmlElement, ...types: string[]) => types.every((t) => ["", "0"].includes(field(node, t)));

const CODE = /\[(\/?)(i|b)\]|\[\/?(?:u|s|c|r|h[1-9]|lang=[^\]]{1,20}|fn\*?|comment)\]/gi;

/** A scene's text (one paragraph a line) with `[i]`/`[b]` as emphasis, as Markdown. */
export function yWriterMarkdown(text: string): string {
  const content: JSONContent[] = text.split(/\r?\n/).map((line) => {
    const runs: JSONContent[] = [];
    let italic = false;
    let bold = false;
    let at = 0;
    const push = (part: string) => {
      if (!part) return;
      const marks = [...(bold ? [{ type: "bold" }] : []), ...(italic ? [{ type: "italic" }] : [])];
      runs.push({ type: "text", text: part, ...(marks.length > 0 && { marks }) });
    };
    for (const m of line.matchAll(CODE)) {
      push(line.slice(at, m.index));
      at = (m.index ?? 0) + m[0].length;
      if (m[2]?.toLowerCase() === "i") italic = m[1] !== "/";
      if (m[2]?.toLowerCase() === "b") bold = m[1] !== "/";
    }
    push(line.slice(at));
    return { type: "paragraph", content: runs };
  });
  return serializeMarkdown({ type: "doc", content });
}

/** `2021-03-04 10:30:00` → `2021-03-04T10:30` (midnight: the day alone). */
function storyDate(value: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}):(\d{2}))?/.exec(value);
  if (!m) return null;
  return m[2] && !(m[2] === "00" && m[3] === "00") ? `${m[1]}T${m[2]}:${m[3]}` : m[1];
}

export function readYw7(text: string, fallbackTitle: string): { documents: TimelineDocument[]; skipped: string[] } {
  const root = parseXml(text);
  if (root.name !== "YWRITER7") throw new BadFile("it is not a yWriter 7 project (its root is not YWRITER7)");
  const skipped: string[] = [];
  const project = childNamed(root, "PROJECT");
  const doc = newDocument(
    fitTitle(field(project, "Title"), limits.timelineTitle) || fallbackTitle,
    field(project, "Desc").slice(0, limits.timelineDescription) || null,
  );
  const codex = new Map<string, string>();
  for (const [group, item, kind, idTag] of [
    ["CHARACTERS", "CHARACTER", "character", "c"],
    ["LOCATIONS", "LOCATION", "place", "l"],
    ["ITEMS", "ITEM", "thing", "i"],
  ] as const) {
    for (const node of elementsOf(childNamed(root, group) ?? { name: "", attrs: {}, children: [] }).filter((n) => n.name === item)) {
      const name = fitTitle(field(node, "Title"), entityLimits.name);
      if (!name || doc.entities.some((e) => e.name.toLowerCase() === name.toLowerCase())) continue;
      const aliases = [field(node, "AKA"), field(node, "FullName")]
        .map((a) => fitTitle(a, entityLimits.alias))
        .filter((a) => a && a !== name);
      const description = [field(node, "Desc"), field(node, "Bio"), field(node, "Goals")]
        .filter(Boolean)
        .join("\n\n")
        .slice(0, entityLimits.description);
      doc.entities.push({
        kind: kind as EntityKind,
        name,
        aliases: [...new Set(aliases)],
        description,
        color: nextEntityColor(
          kind as EntityKind,
          doc.entities.map((e) => e.color),
        ),
      });
      codex.set(`${idTag}${field(node, "ID")}`, name);
    }
  }
  const scenes = new Map(
    elementsOf(childNamed(root, "SCENES") ?? { name: "", attrs: {}, children: [] })
      .filter((n) => n.name === "SCENE")
      .map((n) => [field(n, "ID"), n]),
  );
  doc.chapters = [];
  let leftOut = 0;
  // Scenes dated relative to the story's start (Day 1, 8 h) rather than on a date: a story date needs a day.
  let relative = 0;
  for (const chapter of elementsOf(childNamed(root, "CHAPTERS") ?? { name: "", attrs: {}, children: [] }).filter(
    (n) => n.name === "CHAPTER",
  )) {
    if (unused(chapter) || !isNormal(chapter, "Type", "ChapterType")) {
      leftOut++;
      continue;
    }
    const index = doc.chapters.length;
    doc.chapters.push({ title: fitTitle(field(chapter, "Title"), chapterLimits.title) || `Chapter ${index + 1}`, targetWords: null });
    for (const id of ids(chapter, "Scenes", "ScID")) {
      const scene = scenes.get(id);
      if (!scene) continue;
      if (unused(scene) || !isNormal(scene, "Type")) {
        leftOut++;
        continue;
      }
      const event: TransferEvent = { ...emptyEvent(), title: fitTitle(field(scene, "Title")) || "Untitled scene", chapter: index };
      event.content = yWriterMarkdown(field(scene, "SceneContent"));
      const links = [
        ...ids(scene, "Characters", "CharID").map((i) => codex.get(`c${i}`)),
        ...ids(scene, "Locations", "LocID").map((i) => codex.get(`l${i}`)),
        ...ids(scene, "Items", "ItemID").map((i) => codex.get(`i${i}`)),
      ].filter((n): n is string => Boolean(n));
      event.entities = [...new Set(links)];
      event.pov = codex.get(`c${ids(scene, "Characters", "CharID")[0]}`) ?? null;
      const date = storyDate(field(scene, "SpecificDateTime"));
      if (date) event.storyStart = date;
      else if (["Day", "Hour", "Minute"].some((name) => field(scene, name))) relative++;
      doc.events.push(event);
    }
  }
  if (relative > 0)
    skipped.push(
      `the relative date (day and hour from the story's start) of ${relative} scene${relative === 1 ? "" : "s"}: no story date set`,
    );
  if (leftOut > 0) skipped.push(`${leftOut} unused, notes or to-do chapter${leftOut === 1 ? "" : "s"} and scenes`);
  const notes = elementsOf(childNamed(root, "PROJECTNOTES") ?? { name: "", attrs: {}, children: [] }).length;
  if (notes > 0) skipped.push(`${notes} project note${notes === 1 ? "" : "s"}`);
  return { documents: [doc], skipped };
}
