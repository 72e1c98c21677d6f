// A Word .docx as a book: document.xml's paragraphs with their styles (Heading 1 starts a chapter, Title names the
// book), runs with bold and italic, tracked changes read as accepted (insertions kept, deletions dropped). The zip
// and its XML are read by the guards beside this file; comments.xml's comments are kept with the paragraph each is anchored in and the words it
// covers, replies in their threads (commentsExtended.xml); nothing else of the package is opened.
import type { Paragraph, Run } from "./book";
import { CommentAnchors, type FileComment } from "./comments";
import { type XmlElement, childNamed, descendants, elementsOf, parseXml, textOf } from "./xml-guard";
import { BadFile, type ZipArchive } from "./zip-guard";

type Style = { name: string; heading1: boolean; bold?: boolean; italic?: boolean };

/** Parts of a run or paragraph whose text is not the document's: deletions, field codes, the old side of a move. */
const SKIP = new Set([
  "w:del",
  "w:delText",
  "w:moveFrom",
  "w:instrText",
  "w:rPr",
  "w:pPr",
  "mc:Fallback",
  "w:commentReference",
  "w:footnoteReference",
  "w:endnoteReference",
]);

/** `<w:b/>` and `<w:b w:val="1"/>` turn a property on; `w:val="0"`/`"false"`/`"none"` turn it off. */
const on = (el: XmlElement | undefined) => (el ? !["0", "false", "off", "none"].includes(el.attrs["w:val"] ?? "1") : undefined);

function readStyles(zip: ZipArchive): Map<string, Style> {
  const styles = new Map<string, Style>();
  const text = zip.text("word/styles.xml");
  if (!text) return styles;
  for (const style of descendants(parseXml(text), "w:style")) {
    const id = style.attrs["w:styleId"];
    if (!id) continue;
    const name = (childNamed(style, "w:name")?.attrs["w:val"] ?? id).toLowerCase();
    const pPr = childNamed(style, "w:pPr");
    const rPr = childNamed(style, "w:rPr");
    const outline = pPr && childNamed(pPr, "w:outlineLvl")?.attrs["w:val"];
    styles.set(id, {
      name,
      heading1: name === "heading 1" || id.toLowerCase() === "heading1" || outline === "0",
      bold: rPr && on(childNamed(rPr, "w:b")),
      italic: rPr && on(childNamed(rPr, "w:i")),
    });
  }
  return styles;
}

/** Where the walk is: the comments' anchors so far and the index of the paragraph being read. */
type Walk = { anchors: CommentAnchors; paragraph: number };

/** A comment's range marks or reference, read where it stands (returns false for any other element). */
function anchorOf(child: XmlElement, walk: Walk): boolean {
  const id = child.attrs["w:id"];
  if (child.name === "w:commentRangeStart" && id) walk.anchors.start(id, walk.paragraph);
  else if (child.name === "w:commentRangeEnd" && id) walk.anchors.end(id);
  else if (child.name === "w:commentReference" && id) walk.anchors.start(id, walk.paragraph, false);
  else return false;
  return true;
}

function runsOf(node: XmlElement, styles: Map<string, Style>, walk: Walk, out: Run[] = [], base: Omit<Run, "text"> = {}): Run[] {
  for (const child of elementsOf(node)) {
    if (anchorOf(child, walk) || SKIP.has(child.name)) continue;
    if (child.name === "w:r") {
      const rPr = childNamed(child, "w:rPr");
      const charStyle = rPr && styles.get(childNamed(rPr, "w:rStyle")?.attrs["w:val"] ?? "");
      const bold = (rPr && on(childNamed(rPr, "w:b"))) ?? charStyle?.bold ?? base.bold;
      const italic = (rPr && on(childNamed(rPr, "w:i"))) ?? charStyle?.italic ?? base.italic;
      for (const part of elementsOf(child)) {
        if (anchorOf(part, walk)) continue;
        const text =
          part.name === "w:t"
            ? textOf(part)
            : part.name === "w:tab" || part.name === "w:br" || part.name === "w:cr"
              ? " "
              : part.name === "w:noBreakHyphen"
                ? "-"
                : "";
        if (!text) continue;
        out.push({ text, bold: Boolean(bold), italic: Boolean(italic) });
        walk.anchors.text(text);
      }
      continue;
    }
    runsOf(child, styles, walk, out, base);
  }
  return out;
}

/** `unplaced`: comments of comments.xml whose anchor is nowhere in the text. */
export type WordBook = { title: string | null; paragraphs: Paragraph[]; unplaced: number };

/**
 * comments.xml's comments by id: author and text (its paragraphs on lines of their own), and from
 * commentsExtended.xml (Word 2013 on) the comment each reply answers and whether it is done (resolved). A reply is
 * linked by paragraph ids: its `w15:commentEx` names its last paragraph's `w14:paraId` and its parent's.
 */
function readComments(zip: ZipArchive) {
  const comments = new Map<string, FileComment>();
  const xml = zip.text("word/comments.xml");
  if (!xml) return comments;
  const commentOfParagraph = new Map<string, string>();
  for (const comment of descendants(parseXml(xml), "w:comment")) {
    const id = comment.attrs["w:id"];
    if (id === undefined) continue;
    const paragraphs = descendants(comment, "w:p");
    const text = paragraphs
      .map((p) => descendants(p, "w:t").map(textOf).join(""))
      .join("\n")
      .trim();
    if (!text) continue;
    comments.set(id, { author: comment.attrs["w:author"] ?? "", text });
    for (const p of paragraphs) {
      const paraId = p.attrs["w14:paraId"];
      if (paraId) commentOfParagraph.set(paraId.toUpperCase(), id);
    }
  }
  const extended = zip.text("word/commentsExtended.xml");
  if (!extended) return comments;
  for (const ex of descendants(parseXml(extended), "w15:commentEx")) {
    const id = commentOfParagraph.get((ex.attrs["w15:paraId"] ?? "").toUpperCase());
    const comment = id === undefined ? undefined : comments.get(id);
    if (!comment) continue;
    const parent = commentOfParagraph.get((ex.attrs["w15:paraIdParent"] ?? "").toUpperCase());
    if (parent !== undefined && parent !== id) comment.parent = parent;
    if (["1", "true", "on"].includes(ex.attrs["w15:done"] ?? "")) comment.resolved = true;
  }
  return comments;
}

export function readDocx(zip: ZipArchive): WordBook {
  const rels = zip.text("_rels/.rels");
  const target = rels
    ? descendants(parseXml(rels), "Relationship")
        .find((r) => r.attrs.Type?.endsWith("/officeDocument"))
        ?.attrs.Target?.replace(/^\//, "")
    : undefined;
  const main = zip.text(target ?? "word/document.xml") ?? zip.text("word/document.xml");
  if (main === null) throw new BadFile("it has no document part (is it really a .docx?)");
  const styles = readStyles(zip);
  const body = descendants(parseXml(main), "w:body")[0];
  if (!body) throw new BadFile("its document part has no body");
  const paragraphs: Paragraph[] = [];
  const at: Walk = { anchors: new CommentAnchors(), paragraph: 0 };
  const walk = (node: XmlElement) => {
    for (const child of elementsOf(node)) {
      at.paragraph = paragraphs.length;
      if (anchorOf(child, at) || SKIP.has(child.name)) continue;
      if (child.name !== "w:p") {
        walk(child);
        continue;
      }
      const pPr = childNamed(child, "w:pPr");
      const styleId = (pPr && childNamed(pPr, "w:pStyle")?.attrs["w:val"]) ?? "";
      const style = styles.get(styleId);
      const outline = pPr && childNamed(pPr, "w:outlineLvl")?.attrs["w:val"];
      // Word's built-in ids stand for their styles even when styles.xml leaves them out.
      const heading1 = style ? style.heading1 : /^heading ?1$/i.test(styleId);
      const title = style ? style.name === "title" : styleId.toLowerCase() === "title";
      const role = heading1 || outline === "0" ? "chapter" : title ? "title" : "text";
      paragraphs.push({ role, runs: runsOf(child, styles, at, [], { bold: style?.bold, italic: style?.italic }) });
      // A range over several paragraphs quotes them with a space between.
      at.anchors.text(" ");
    }
  };
  walk(body);
  const core = zip.text("docProps/core.xml");
  const coreTitle = core ? textOf(descendants(parseXml(core), "dc:title")[0] ?? "").trim() : "";
  const titleParagraph = paragraphs.find((p) => p.role === "title");
  const styledTitle = titleParagraph
    ? titleParagraph.runs
        .map((r) => r.text)
        .join("")
        .trim()
    : "";
  const comments = readComments(zip);
  const placed = at.anchors.attach(paragraphs, comments);
  return { title: coreTitle || styledTitle || null, paragraphs, unplaced: comments.size - placed };
}
