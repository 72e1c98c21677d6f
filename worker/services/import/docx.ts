// A Word .docx as a book: document.xml's paragraphs with their styles (Heading 1 starts a chapter, Title names the
// book), runs with bold and italic, tracked changes read as accepted (insertions kept, deletions dropped). The zip
// and its XML are read by the guards beside this file; nothing else of the package is opened.
import type { Paragraph, Run } from "./book";
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

function runsOf(node: XmlElement, styles: Map<string, Style>, out: Run[] = [], base: Omit<Run, "text"> = {}): Run[] {
  for (const child of elementsOf(node)) {
    if (SKIP.has(child.name)) continue;
    if (child.name === "w:r") {
      const rPr = childNamed(child, "w:rPr");
      const charStyle = rPr && styles.get(childNamed(rPr, "w:rStyle")?.attrs["w:val"] ?? "");
      const bold = (rPr && on(childNamed(rPr, "w:b"))) ?? charStyle?.bold ?? base.bold;
      const italic = (rPr && on(childNamed(rPr, "w:i"))) ?? charStyle?.italic ?? base.italic;
      for (const part of elementsOf(child)) {
        const text =
          part.name === "w:t"
            ? textOf(part)
            : part.name === "w:tab" || part.name === "w:br" || part.name === "w:cr"
              ? " "
              : part.name === "w:noBreakHyphen"
                ? "-"
                : "";
        if (text) out.push({ text, bold: Boolean(bold), italic: Boolean(italic) });
      }
      continue;
    }
    runsOf(child, styles, out, base);
  }
  return out;
}

export type WordBook = { title: string | null; paragraphs: Paragraph[]; comments: number };

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
  const walk = (node: XmlElement) => {
    for (const child of elementsOf(node)) {
      if (SKIP.has(child.name)) continue;
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
      paragraphs.push({ role, runs: runsOf(child, styles, [], { bold: style?.bold, italic: style?.italic }) });
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
  const commentsXml = zip.text("word/comments.xml");
  const comments = commentsXml ? descendants(parseXml(commentsXml), "w:comment").length : 0;
  return { title: coreTitle || styledTitle || null, paragraphs, comments };
}
