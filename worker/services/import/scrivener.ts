// A Scrivener 3 project (a zip of its .scriv folder) as a StoryWeave document. Title: the .scrivx name. Each folder
// directly in the Draft is a chapter (texts directly in the Draft gather in a chapter named as the Draft); every
// text inside it, at any depth, is a scene titled as in the binder with its content.rtf as Markdown. A chapter
// folder's own text is its first scene. Texts in folders named Characters, Places, Locations or Settings outside
// the Draft become codex entries. Research, Trash and templates are not read. The labels the Draft's texts carry
// become plotlines (in the project's label order, with the label's colour), each scene in its label's; the project's
// draft target (in words) becomes the timeline's word target.
import { type EntityKind, entityLimits, limits, nextEntityColor } from "../../../db/domain/rules";
import { type TimelineDocument, emptyEvent, newDocument } from "../../../db/domain/transfer/document";
import { defaultPlotlineColor, plotlineLimits } from "../../../db/domain/plotline-rules";
import { chapterLimits } from "../../../db/domain/validation-chapters";
import { fitTitle, markdownOf } from "./book";
import { rtfParagraphs } from "./rtf";
import { type XmlElement, childNamed, elementsOf, parseXml, textOf } from "./xml-guard";
import { BadFile, type ZipArchive } from "./zip-guard";

const CODEX_FOLDERS: Record<string, EntityKind> = { characters: "character", places: "place", locations: "place", settings: "place" };

const titleOf = (item: XmlElement) => textOf(childNamed(item, "Title") ?? "").trim();
const childrenOf = (item: XmlElement) =>
  elementsOf(childNamed(item, "Children") ?? { name: "", attrs: {}, children: [] }).filter((c) => c.name === "BinderItem");

/** Scrivener's colour, `"0.333333 0.000000 1.000000"` (red, green, blue from 0 to 1), as `#5500ff`. */
function hexOf(color: string | undefined): string | null {
  const parts = (color ?? "").trim().split(/\s+/).map(Number);
  if (parts.length < 3 || parts.slice(0, 3).some((n) => !Number.isFinite(n) || n < 0 || n > 1)) return null;
  return `#${parts
    .slice(0, 3)
    .map((n) =>
      Math.round(n * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;
}

/** The project's labels in their order: id, title and colour ("No Label", id -1, is none). */
function labelsOf(root: XmlElement) {
  const settings = childNamed(root, "LabelSettings");
  const list = settings && childNamed(settings, "Labels");
  return (list ? elementsOf(list) : [])
    .filter((l) => l.name === "Label" && l.attrs.ID !== undefined && Number(l.attrs.ID) >= 0)
    .map((l) => ({ id: l.attrs.ID, title: textOf(l).trim(), color: hexOf(l.attrs.Color) }));
}

const labelIdOf = (item: XmlElement) => {
  const meta = childNamed(item, "MetaData");
  return meta ? textOf(childNamed(meta, "LabelID") ?? "").trim() || null : null;
};

/** The draft target when it counts words (a target in characters or pages has no equal here). */
function draftTargetOf(root: XmlElement): number | null {
  const targets = childNamed(root, "ProjectTargets");
  const draft = targets && childNamed(targets, "DraftTarget");
  if (!draft || (draft.attrs.Type ?? "Words") !== "Words") return null;
  const words = Number(textOf(draft).trim());
  return Number.isInteger(words) && words >= 1 && words <= chapterLimits.targetWords ? words : null;
}

export function readScrivener(zip: ZipArchive): { documents: TimelineDocument[]; skipped: string[] } | null {
  const scrivx = [...zip.entries.keys()]
    .filter((p) => p.toLowerCase().endsWith(".scrivx") && !p.includes("__MACOSX"))
    .sort((a, b) => a.length - b.length)[0];
  if (!scrivx) return null;
  const base = scrivx.includes("/") ? scrivx.slice(0, scrivx.lastIndexOf("/") + 1) : "";
  const name = scrivx.slice(base.length).replace(/\.scrivx$/i, "");
  const root = parseXml(zip.text(scrivx) ?? "");
  const binder = childNamed(root, "Binder");
  if (root.name !== "ScrivenerProject" || !binder) throw new BadFile("its .scrivx is not a Scrivener project");
  const text = (item: XmlElement) => {
    const rtf = zip.text(`${base}Files/Data/${item.attrs.UUID}/content.rtf`);
    return rtf ? markdownOf(rtfParagraphs(rtf)) : "";
  };
  /** The document's synopsis (its index card), kept as the scene's notes (DESIGN §12); cut at the notes' limit. */
  const notesOf = (item: XmlElement) => {
    const synopsis = (zip.text(`${base}Files/Data/${item.attrs.UUID}/synopsis.txt`) ?? "").replace(/\r\n?/g, "\n").trim();
    return synopsis ? { notes: synopsis.slice(0, limits.eventNotes) } : {};
  };
  const doc = newDocument(fitTitle(name, limits.timelineTitle) || "Scrivener project", null);
  doc.chapters = [];
  const skipped: string[] = [];
  const top = elementsOf(binder).filter((c) => c.name === "BinderItem");
  const draft = top.find((i) => i.attrs.Type === "DraftFolder");
  if (!draft) throw new BadFile("its binder has no Draft folder");
  // Each scene's label id, by its index in doc.events.
  const labelOfScene: (string | null)[] = [];
  const addScene = (item: XmlElement, content: string, chapter: number, fallback: string) => {
    doc.events.push({ ...emptyEvent(), title: fitTitle(titleOf(item)) || fallback, content, chapter, ...notesOf(item) });
    labelOfScene.push(labelIdOf(item));
  };
  const scenesIn = (item: XmlElement, chapter: number, depth = 0) => {
    if (depth > 50) return;
    for (const child of childrenOf(item)) {
      if (child.attrs.Type === "Text") addScene(child, text(child), chapter, "Untitled");
      scenesIn(child, chapter, depth + 1);
    }
  };
  let loose: number | null = null;
  for (const child of childrenOf(draft)) {
    if (child.attrs.Type === "Folder") {
      loose = null;
      doc.chapters.push({
        title: fitTitle(titleOf(child), chapterLimits.title) || `Chapter ${doc.chapters.length + 1}`,
        targetWords: null,
      });
      const chapter = doc.chapters.length - 1;
      const own = text(child);
      if (own.trim()) addScene(child, own, chapter, "Chapter");
      scenesIn(child, chapter);
    } else if (child.attrs.Type === "Text") {
      if (loose === null) {
        doc.chapters.push({ title: fitTitle(titleOf(draft), chapterLimits.title) || "Draft", targetWords: null });
        loose = doc.chapters.length - 1;
      }
      addScene(child, text(child), loose, "Untitled");
      scenesIn(child, loose);
    }
  }
  const codexIn = (item: XmlElement, kind: EntityKind | null, depth = 0) => {
    if (depth > 50) return;
    for (const child of childrenOf(item)) {
      if (["DraftFolder", "ResearchFolder", "TrashFolder"].includes(child.attrs.Type ?? "")) continue;
      const folderKind = CODEX_FOLDERS[titleOf(child).toLowerCase()] ?? kind;
      if (child.attrs.Type === "Text" && kind) {
        const entryName = fitTitle(titleOf(child), entityLimits.name);
        if (entryName && !doc.entities.some((e) => e.name.toLowerCase() === entryName.toLowerCase()))
          doc.entities.push({
            kind,
            name: entryName,
            aliases: [],
            description: text(child).slice(0, entityLimits.description),
            color: nextEntityColor(
              kind,
              doc.entities.map((e) => e.color),
            ),
          });
      }
      codexIn(child, folderKind, depth + 1);
    }
  };
  codexIn({ name: "", attrs: {}, children: [{ name: "Children", attrs: {}, children: top }] }, null);
  const used = labelsOf(root).filter((l) => l.title && labelOfScene.includes(l.id));
  if (used.length > 0) {
    doc.plotlines = used.map((l, i) => ({ title: fitTitle(l.title, plotlineLimits.title), color: l.color ?? defaultPlotlineColor(i) }));
    doc.events.forEach((event, i) => {
      const plotline = used.findIndex((l) => l.id === labelOfScene[i]);
      if (plotline >= 0) event.plotlines = [plotline];
    });
  }
  const target = draftTargetOf(root);
  if (target) doc.timeline.targetWords = target;
  if (top.some((i) => i.attrs.Type === "ResearchFolder")) skipped.push("the Research folder");
  return { documents: [doc], skipped };
}
