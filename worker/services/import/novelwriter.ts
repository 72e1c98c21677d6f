// A novelWriter project (a zip of the folder holding nwProject.nwx) as StoryWeave documents: each NOVEL root a
// book (several: a series). In project-tree order, its active DOCUMENT files: `##`/`##!` start chapters, `###`
// scenes, `#!` or the first `#` is the title (other `#` are parts); `%` comments, `@` keywords and formatting
// codes are not text. `@pov`/`@char`/`@location` link the codex: the CHARACTER and WORLD roots' notes, one entry
// per `@tag` (`@tag: Jane | Jane Smith` → Jane Smith), the note's text as its description.
import { type EntityKind, entityLimits, limits, nextEntityColor } from "../../../db/domain/rules";
import { type TimelineDocument, type TransferEvent, emptyEvent, newDocument } from "../../../db/domain/transfer/document";
import { chapterLimits } from "../../../db/domain/validation-chapters";
import { fitTitle } from "./book";
import { type XmlElement, childNamed, descendants, textOf } from "./xml-guard";
import { parseXml } from "./xml-guard";
import { BadFile, type ZipArchive } from "./zip-guard";

type Item = { handle: string; root: string; type: string; cls: string; layout: string; active: boolean; name: string };

/** An item's property: an attribute in format 1.5, a child element in older projects. */
const prop = (item: XmlElement, key: string) => item.attrs[key] ?? (childNamed(item, key) ? textOf(childNamed(item, key)!).trim() : "");

function readItems(nwx: XmlElement): Item[] {
  return descendants(nwx, "item").map((item) => {
    const name = childNamed(item, "name");
    const exported = prop(item, "exported");
    return {
      handle: item.attrs.handle ?? "",
      root: prop(item, "root"),
      type: prop(item, "type"),
      cls: prop(item, "class"),
      layout: prop(item, "layout"),
      active: name?.attrs.active !== "no" && exported !== "False",
      name: name ? textOf(name).trim() : "",
    };
  });
}

const SHORTCODE = /\[(\/?)(b|i)\]|\[\/?(?:s|u|m|sup|sub|br|newpage|new page|vspace(?::\d+)?)\]|^\s*>>\s?|\s?<<\s*$|^\s*<<\s?|\s?>>\s*$/gi;

/** A text line without novelWriter's codes; `[b]`/`[i]` as Markdown emphasis (the rest is Markdown already). */
const cleanLine = (line: string) =>
  line.replace(SHORTCODE, (_m, close: string, code: string) =>
    code ? (code.toLowerCase() === "b" ? "**" : "_") : close === undefined ? "" : "",
  );

type Codex = Map<string, { name: string; kind: EntityKind; description: string }>;

function readCodex(zip: ZipArchive, base: string, items: Item[]): Codex {
  const codex: Codex = new Map();
  const roots = new Map(items.filter((i) => i.type === "ROOT").map((i) => [i.handle, i.cls]));
  for (const item of items) {
    const cls = roots.get(item.root);
    if (item.type !== "FILE" || !item.active || (cls !== "CHARACTER" && cls !== "WORLD")) continue;
    const text = zip.text(`${base}content/${item.handle}.nwd`) ?? "";
    let heading = item.name;
    let entry: { name: string; kind: EntityKind; description: string } | null = null;
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      const h = /^#{1,4}!?\s+(.*)$/.exec(line);
      if (h) {
        heading = h[1].trim();
        entry = null;
        continue;
      }
      const tag = /^@tag:\s*(.+)$/i.exec(line);
      if (tag) {
        const [key, display] = tag[1].split("|").map((s) => s.trim());
        entry = {
          name: fitTitle(display || heading || key, entityLimits.name),
          kind: cls === "CHARACTER" ? "character" : "place",
          description: "",
        };
        if (key && !codex.has(key.toLowerCase())) codex.set(key.toLowerCase(), entry);
        continue;
      }
      if (!entry || line.startsWith("%") || line.startsWith("@")) continue;
      entry.description = `${entry.description}${entry.description && !line ? "\n" : entry.description ? "\n" : ""}${cleanLine(raw)}`.slice(
        0,
        entityLimits.description,
      );
    }
  }
  for (const entry of codex.values()) entry.description = entry.description.replace(/\n{3,}/g, "\n\n").trim();
  return codex;
}

function readBook(zip: ZipArchive, base: string, items: Item[], root: Item, codex: Codex, skipped: string[]): TimelineDocument {
  const doc = newDocument(root.name || "Novel", null);
  doc.chapters = [];
  let title: string | null = null;
  let scene: (TransferEvent & { lines: string[] }) | null = null;
  const finish = () => {
    if (!scene) return;
    const { lines, ...event } = scene;
    event.content = lines
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
    if (event.content) doc.events.push(event);
    scene = null;
  };
  const link = (event: TransferEvent, tags: string) => {
    for (const tag of tags.split(",").map((t) => t.trim().toLowerCase())) {
      const entry = codex.get(tag);
      if (!entry) continue;
      if (!doc.entities.some((e) => e.name === entry.name))
        doc.entities.push({
          kind: entry.kind,
          name: entry.name,
          aliases: [],
          description: entry.description,
          color: nextEntityColor(
            entry.kind,
            doc.entities.map((e) => e.color),
          ),
        });
      if (!event.entities.includes(entry.name)) event.entities.push(entry.name);
    }
  };
  let left = 0;
  // Text outside any chapter: title pages, an introduction, part pages (front matter, as in a manuscript).
  let frontMatter = 0;
  for (const item of items) {
    if (item.root !== root.handle || item.type !== "FILE") continue;
    if (item.layout !== "DOCUMENT" || !item.active) {
      left++;
      continue;
    }
    const text = zip.text(`${base}content/${item.handle}.nwd`) ?? "";
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim();
      const heading = /^(#{1,4})(!?)\s+(.*)$/.exec(line);
      if (heading) {
        const [, hashes, bang, words] = heading;
        if (hashes === "#") {
          if (bang || title === null) title = title ?? words.trim();
          finish();
        } else if (hashes === "##") {
          finish();
          doc.chapters.push({ title: fitTitle(words, chapterLimits.title) || `Chapter ${doc.chapters.length + 1}`, targetWords: null });
          scene = { ...emptyEvent(), title: fitTitle(words) || "Chapter", chapter: doc.chapters.length - 1, lines: [] };
        } else if (hashes === "###") {
          finish();
          if (doc.chapters.length > 0)
            scene = { ...emptyEvent(), title: fitTitle(words) || "Scene", chapter: doc.chapters.length - 1, lines: [] };
        }
        continue;
      }
      if (line.startsWith("%")) continue;
      if (line.startsWith("@")) {
        const kw = /^@(\w+):\s*(.*)$/.exec(line);
        if (scene && kw) {
          const [, key, value] = kw;
          if (key === "pov") {
            link(scene, value);
            scene.pov = codex.get(value.split(",")[0].trim().toLowerCase())?.name ?? scene.pov;
          } else if (key === "char" || key === "location" || key === "focus") link(scene, value);
        }
        continue;
      }
      if (scene) scene.lines.push(cleanLine(raw));
      else if (/[\p{L}\p{N}]/u.test(cleanLine(line).replace(/\[[^\]]*\]/g, ""))) frontMatter++;
    }
  }
  finish();
  if (title) doc.timeline.title = fitTitle(title, limits.timelineTitle);
  if (frontMatter > 0)
    skipped.push(`“${doc.timeline.title}”: ${frontMatter} paragraph${frontMatter === 1 ? "" : "s"} outside any chapter (front matter)`);
  if (left > 0) skipped.push(`“${doc.timeline.title}”: ${left} note${left === 1 ? "" : "s"} or inactive document${left === 1 ? "" : "s"}`);
  return doc;
}

/** The project's books, or null when the zip holds no nwProject.nwx. */
export function readNovelWriter(zip: ZipArchive): { documents: TimelineDocument[]; skipped: string[] } | null {
  const nwxPath = [...zip.entries.keys()]
    .filter((p) => p === "nwProject.nwx" || p.endsWith("/nwProject.nwx"))
    .sort((a, b) => a.length - b.length)[0];
  if (!nwxPath) return null;
  const base = nwxPath.slice(0, -"nwProject.nwx".length);
  const nwx = parseXml(zip.text(nwxPath) ?? "");
  if (nwx.name !== "novelWriterXML") throw new BadFile("its nwProject.nwx is not a novelWriter project");
  const items = readItems(nwx);
  const codex = readCodex(zip, base, items);
  const skipped: string[] = [];
  const documents = items
    .filter((i) => i.type === "ROOT" && i.cls === "NOVEL")
    .map((root) => readBook(zip, base, items, root, codex, skipped));
  return { documents, skipped };
}
