// An OpenDocument text (.odt) as a book: content.xml's paragraphs and headings (outline level 1 or the Heading 1
// style starts a chapter, the Title style names the book), spans with bold and italic from their styles, tracked
// changes read as accepted (the deleted text lives apart in text:tracked-changes and is skipped), notes left out.
// Annotations (comments) are kept with the paragraph they are in and the words up to their annotation-end, a reply
// (LibreOffice's `loext:parent-name`) in its thread.
// meta.xml's dc:title names the book first.
import type { Paragraph, Run } from "./book";
import { CommentAnchors, type FileComment } from "./comments";
import { type XmlElement, descendants, elementsOf, parseXml, textOf } from "./xml-guard";
import { BadFile, type ZipArchive } from "./zip-guard";

type Style = { parent?: string; display: string; bold?: boolean; italic?: boolean; outline?: string };

/** Parts whose text is not the document's running text. */
const SKIP = new Set([
  "text:tracked-changes",
  "office:annotation",
  "office:annotation-end",
  "text:note",
  "text:sequence-decls",
  "office:forms",
]);

function readStyles(roots: XmlElement[]): Map<string, Style> {
  const styles = new Map<string, Style>();
  for (const root of roots) {
    for (const style of descendants(root, "style:style")) {
      const name = style.attrs["style:name"];
      if (!name) continue;
      const props = elementsOf(style).find((c) => c.name === "style:text-properties");
      const weight = props?.attrs["fo:font-weight"];
      const fontStyle = props?.attrs["fo:font-style"];
      styles.set(name, {
        parent: style.attrs["style:parent-style-name"],
        display: (style.attrs["style:display-name"] ?? name.replace(/_20_/g, " ")).toLowerCase(),
        bold: weight === undefined ? undefined : weight === "bold" || Number(weight) >= 600,
        italic: fontStyle === undefined ? undefined : fontStyle === "italic" || fontStyle === "oblique",
        outline: style.attrs["style:default-outline-level"],
      });
    }
  }
  return styles;
}

/** A style's property, looked up its parent chain (at most a few deep). */
function inherited<K extends keyof Style>(styles: Map<string, Style>, name: string | undefined, key: K): Style[K] | undefined {
  let current = name;
  for (let depth = 0; current && depth < 10; depth++) {
    const style = styles.get(current);
    if (!style) return undefined;
    if (style[key] !== undefined) return style[key];
    current = style.parent;
  }
  return undefined;
}

const names = (styles: Map<string, Style>, name: string | undefined) => {
  const out: string[] = [];
  let current = name;
  for (let depth = 0; current && depth < 10; depth++) {
    const style = styles.get(current);
    out.push(style?.display ?? current.toLowerCase());
    current = style?.parent;
  }
  return out;
};

/** Where the walk is: the annotations so far (with their text by id) and the paragraph being read. */
type Walk = { anchors: CommentAnchors; comments: Map<string, FileComment>; paragraph: number };

/** An annotation where it stands: a comment anchored here, open until its annotation-end (when it names one). */
function annotate(child: XmlElement, walk: Walk) {
  if (child.name === "office:annotation-end") {
    const name = child.attrs["office:name"];
    if (name) walk.anchors.end(`name:${name}`);
    return;
  }
  const name = child.attrs["office:name"];
  const id = name ? `name:${name}` : `at:${walk.comments.size}`;
  const text = elementsOf(child)
    .filter((c) => c.name === "text:p" || c.name === "text:list")
    .map((c) => textOf(c).trim())
    .filter(Boolean)
    .join("\n");
  if (!text || walk.comments.has(id)) return;
  // LibreOffice marks a reply with the name of the annotation it answers, and a resolved one (its own extension).
  const parent = child.attrs["loext:parent-name"];
  walk.comments.set(id, {
    author: textOf(descendants(child, "dc:creator")[0] ?? "").trim(),
    text,
    ...(parent && { parent: `name:${parent}` }),
    ...(child.attrs["loext:resolved"] === "true" && { resolved: true }),
  });
  walk.anchors.start(id, walk.paragraph, Boolean(name));
}

function runsOf(node: XmlElement, styles: Map<string, Style>, walk: Walk, base: Omit<Run, "text">, out: Run[] = []): Run[] {
  for (const child of node.children) {
    if (typeof child === "string") {
      const text = child.replace(/\s+/g, " ");
      if (!text) continue;
      out.push({ text, ...base });
      walk.anchors.text(text);
      continue;
    }
    if (child.name === "office:annotation" || child.name === "office:annotation-end") {
      annotate(child, walk);
      continue;
    }
    if (SKIP.has(child.name)) continue;
    if (child.name === "text:s") out.push({ text: " ".repeat(Math.min(100, Number(child.attrs["text:c"] ?? 1) || 1)), ...base });
    else if (child.name === "text:tab" || child.name === "text:line-break") out.push({ text: " ", ...base });
    else if (child.name === "text:span") {
      const style = child.attrs["text:style-name"];
      runsOf(
        child,
        styles,
        walk,
        { bold: inherited(styles, style, "bold") ?? base.bold, italic: inherited(styles, style, "italic") ?? base.italic },
        out,
      );
    } else runsOf(child, styles, walk, base, out);
  }
  return out;
}

/** `unplaced`: annotations whose place in the text was not found (none: each is read where it stands). */
export type OdtBook = { title: string | null; paragraphs: Paragraph[]; unplaced: number };

export function readOdt(zip: ZipArchive): OdtBook {
  const content = zip.text("content.xml");
  if (content === null) throw new BadFile("it has no content.xml (is it really an .odt?)");
  const root = parseXml(content);
  const stylesXml = zip.text("styles.xml");
  const styles = readStyles([...(stylesXml ? [parseXml(stylesXml)] : []), root]);
  const text = descendants(root, "office:text")[0];
  if (!text) throw new BadFile("it holds no text document");
  const paragraphs: Paragraph[] = [];
  const at: Walk = { anchors: new CommentAnchors(), comments: new Map(), paragraph: 0 };
  const walk = (node: XmlElement) => {
    for (const child of elementsOf(node)) {
      if (SKIP.has(child.name)) continue;
      if (child.name !== "text:p" && child.name !== "text:h") {
        walk(child);
        continue;
      }
      const style = child.attrs["text:style-name"];
      const chain = names(styles, style);
      const level = child.name === "text:h" ? (child.attrs["text:outline-level"] ?? inherited(styles, style, "outline") ?? "1") : undefined;
      const role = level === "1" || chain.includes("heading 1") ? "chapter" : chain.includes("title") ? "title" : "text";
      const base = { bold: inherited(styles, style, "bold"), italic: inherited(styles, style, "italic") };
      at.paragraph = paragraphs.length;
      paragraphs.push({ role, runs: runsOf(child, styles, at, role === "text" ? base : {}) });
      at.anchors.text(" ");
    }
  };
  walk(text);
  const meta = zip.text("meta.xml");
  const metaTitle = meta ? textOf(descendants(parseXml(meta), "dc:title")[0] ?? "").trim() : "";
  const titled = paragraphs.find((p) => p.role === "title");
  const styledTitle = titled
    ? titled.runs
        .map((r) => r.text)
        .join("")
        .trim()
    : "";
  const placed = at.anchors.attach(paragraphs, at.comments);
  return { title: metaTitle || styledTitle || null, paragraphs, unplaced: at.comments.size - placed };
}
