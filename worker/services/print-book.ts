import type { JSONContent } from "@tiptap/core";
import { type PrintOptions, bookFonts, ornaments, scriptFonts, trimSizes } from "../../db/domain/print-options";
import { markdownToJson } from "../../db/domain/rich-text";
import { bookLanguage } from "./epub";
import { DROPLET } from "./print-droplet";
import type { Manuscript } from "./manuscript";

// The book as Typst source, for the print-ready PDF (docs/decisions.md, 'A book ready to print'). Typst does
// the typesetting: justification, hyphenation by the book's language, widow and orphan control, the table of
// contents. The scenes' stored Markdown goes through the editor's parser; every run of text is a Typst string
// literal, so nothing the author typed is ever read as markup.

/** The author the book carries (title page, copyright, running heads): the owner's name for now. */
export const bookAuthor = (book: Manuscript) => book.author.name;

/** Control characters (but tab and newline) have no place in a book, and Typst strings refuse some of them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

const typstString = (text: string) =>
  `"${text
    .replace(CONTROL, "")
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n")}"`;

function inline(nodes: JSONContent[] | undefined): string {
  let out = "";
  for (const node of nodes ?? []) {
    if (node.type === "hardBreak") {
      out += "#linebreak()";
      continue;
    }
    if (node.type !== "text" || !node.text) continue;
    let run = typstString(node.text);
    for (const mark of node.marks ?? []) {
      if (mark.type === "italic") run = `emph(${run})`;
      else if (mark.type === "bold") run = `strong(${run})`;
      else if (mark.type === "strike") run = `strike(${run})`;
      else if (mark.type === "underline") run = `underline(${run})`;
    }
    out += `#${run}`;
  }
  return out;
}

const plain = (nodes: JSONContent[] | undefined): string =>
  (nodes ?? []).map((n) => (n.type === "text" ? (n.text ?? "") : plain(n.content))).join("");

/** Whether a text's first strong letter is of a right-to-left script (the Unicode bidi rule for a paragraph). */
const RTL_FIRST = /^[^\p{L}]*[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

/** A paragraph set in its own direction: a right-to-left one in a left-to-right book (or the reverse) starts at its side. */
const directed = (text: string, source: string, bookRtl: boolean) => {
  const rtl = RTL_FIRST.test(source);
  return rtl === bookRtl ? text : `#directed(${rtl ? "rtl" : "ltr"})[${text}]`;
};

/** A scene's blocks; `first` is whether the scene's first paragraph opens the chapter or follows a break. */
type BlockState = { opening: boolean; dropCaps: boolean; rtl: boolean; afterDropCap?: boolean };

/** An opening quotation mark or bracket sinks with the letter it opens (as droplet's own extraction does). */
const INITIAL = /^[\p{Pi}\p{Ps}"']*(\p{L})/u;

function blocks(nodes: JSONContent[] | undefined, state: BlockState): string[] {
  const out: string[] = [];
  for (const node of nodes ?? []) {
    // The drop cap's paragraph is a block of its own (droplet lays it out), so the paragraph after it is indented
    // explicitly, as every paragraph that follows another one is.
    const followsDropCap = state.afterDropCap === true;
    state.afterDropCap = false;
    switch (node.type) {
      case "paragraph": {
        const text = inline(node.content);
        if (!text) break;
        const source = plain(node.content);
        if (!state.opening) {
          const set = directed(text, source, state.rtl);
          out.push(followsDropCap ? `#indented[${set}]` : set);
        } else {
          state.opening = false;
          const [first, ...rest] = node.content ?? [];
          const initial = first?.type === "text" ? INITIAL.exec(first.text ?? "") : null;
          // No initial letter for a script whose letters join (Arabic) or that has no capitals to sink.
          if (!state.dropCaps || !initial || !/\p{Lu}|\p{Lt}/u.test(initial[1])) out.push(directed(`#opening[${text}]`, source, state.rtl));
          else {
            const remainder = { ...first, text: first.text?.slice(initial[0].length) };
            out.push(`#drop-cap(${typstString(initial[0])})[${inline([remainder, ...rest])}]`);
            state.afterDropCap = true;
          }
          // The initial letter opens the chapter only; after a scene break the paragraph is just set flush left.
          state.dropCaps = false;
        }
        break;
      }
      case "heading":
        out.push(`#align(center, strong(${typstString(plain(node.content))}))`);
        state.opening = true;
        break;
      case "horizontalRule":
        out.push("#scene-break");
        state.opening = true;
        break;
      case "blockquote":
        out.push(`#quote(block: true)[${blocks(node.content, { ...state, opening: false }).join("\n\n")}]`);
        break;
      case "bulletList":
      case "orderedList":
        for (const item of node.content ?? [])
          out.push(`#block(inset: (left: 1.5em))[${blocks(item.content, { ...state, opening: false }).join("\n\n")}]`);
        break;
      case "codeBlock":
        out.push(`#block(inset: (left: 1.5em))[#raw(block: true, ${typstString(plain(node.content))})]`);
        break;
      default:
        if (node.content) out.push(...blocks(node.content, state));
    }
  }
  return out;
}

const PREAMBLE = (book: Manuscript, options: PrintOptions, lang: string) => {
  // The book face first; the script faces catch the letters it does not have.
  const fonts = [bookFonts[options.font].family, ...Object.values(scriptFonts).map((f) => f.family)].map(typstString).join(", ");
  const trim = trimSizes[options.trim];
  const author = typstString(bookAuthor(book));
  const title = typstString(book.title);
  // Margins grow a little with the page: the inside (gutter) is wider for the binding.
  return `#let book-title = ${title}
#let book-author = ${author}
#set document(title: book-title, author: book-author)
#set text(font: (${fonts}), size: ${options.size}pt, lang: "${lang}", hyphenate: true, costs: (widow: 200%, orphan: 200%, hyphenation: 100%))
#set par(justify: true, first-line-indent: 1.2em, spacing: 0.65em, leading: 0.62em)
#let in-body = state("in-body", false)
#let chapter-page(loc) = query(heading.where(level: 1)).any(h => h.location().page() == loc.page())
// The blank left-hand page before a chapter that must open on the right: no running head, no number.
// (A page where a chapter ends is not blank, though the header stands above that end.)
#let blank-page(loc) = {
  let p = loc.page()
  let opens-next = query(heading.where(level: 1)).any(h => h.location().page() == p + 1)
  let ends = query(<part-end>).map(m => m.location().page())
  opens-next and ends.any(e => e < p) and not ends.contains(p)
}
#set page(
  width: ${trim.width}, height: ${trim.height},
  margin: (inside: 0.875in, outside: 0.625in, top: 0.75in, bottom: 0.75in),
  header: context {
    if not in-body.get() or chapter-page(here()) or blank-page(here()) { return }
    let p = counter(page).get().first()
    set text(size: 0.8em, tracking: 0.05em)
    if calc.even(p) { align(left, smallcaps(book-author)) } else { align(right, smallcaps(book-title)) }
  },
  footer: context {
    if not in-body.get() or blank-page(here()) { return }
    set text(size: 0.85em)
    align(center, counter(page).display("1"))
  },
)
#show heading.where(level: 1, outlined: true): it => {
  pagebreak(to: "odd", weak: true)
  v(1.6in)
  align(center, text(size: 1.6em, weight: "regular", it.body))
  v(0.5in)
}
#let opening(body) = par(first-line-indent: 0pt, body)
#let indented(body) = { set par(first-line-indent: (amount: 1.2em, all: true)); body }
#let directed(dir, body) = { set text(dir: dir); body }
#let scene-break = align(center, block(above: 1.1em, below: 1.1em, ${typstString(ornaments[options.ornament].mark)}))
`;
};

/** A sunk initial three lines deep, the paragraph's first lines set beside it: droplet's `dropcap` (print-droplet.ts). */
const DROP_CAP = "#let drop-cap(letter, body) = { set par(first-line-indent: 0pt); dropcap(height: 3, gap: 0.3em, letter, body) }";

function frontMatter(book: Manuscript, options: PrintOptions) {
  const out: string[] = [];
  const year = new Date().getUTCFullYear();
  const page = (body: string) => out.push(`#page(header: none, footer: none)[${body}]`);
  if (options.front.includes("title"))
    page(`#v(2in)\n#align(center)[#text(size: 2.2em, book-title)\n\n#v(0.6in)\n#text(size: 1.3em, smallcaps(book-author))]`);
  if (options.front.includes("copyright"))
    page(
      `#align(bottom)[#set text(size: 0.8em)\n#set par(justify: false, first-line-indent: 0pt)\n#(${typstString(`Copyright © ${year} ${bookAuthor(book)}`)})\n\n#"All rights reserved."]`,
    );
  if (options.front.includes("dedication") && options.dedication) page(`#v(2in)\n#align(center, emph(${typstString(options.dedication)}))`);
  if (options.front.includes("toc"))
    page(`#outline(title: ${typstString("Contents")}, depth: 1, target: heading.where(level: 1, outlined: true))`);
  return out;
}

/** Languages Typst sets right to left by default (`text.dir: auto`). */
const RTL_LANGUAGES = new Set(["ar", "dv", "fa", "he", "ks", "pa", "ps", "sd", "ug", "ur", "yi"]);

/** The book's Typst source: its fonts are added by whoever compiles it (the app's print dialog, the tests). */
export function renderPrintSource(book: Manuscript, options: PrintOptions) {
  const lang = bookLanguage(
    book.parts
      .flatMap((p) => p.scenes)
      .join("\n")
      .slice(0, 20_000),
  );
  // The text starts on a right-hand page numbered 1, so a page's parity is the same counted either way.
  const out = [
    PREAMBLE(book, options, lang),
    ...(options.dropCaps ? [DROPLET, DROP_CAP] : []),
    ...frontMatter(book, options),
    '#pagebreak(to: "odd", weak: true)',
    "#in-body.update(true)",
    "#counter(page).update(1)",
  ];
  for (const part of book.parts) {
    if (part.title !== null) out.push(`#heading(level: 1, ${typstString(part.title)})`);
    else out.push(`#pagebreak(to: "odd", weak: true)\n#v(1.6in)`);
    const state = { opening: true, dropCaps: options.dropCaps, rtl: RTL_LANGUAGES.has(lang) };
    part.scenes.forEach((scene, i) => {
      if (i > 0) {
        out.push("#scene-break");
        state.opening = true;
      }
      out.push(...blocks(markdownToJson(scene).content, state));
    });
    // Where the part's text ends: a page after it and before the next chapter is a blank verso.
    out.push("#metadata(none) <part-end>");
  }
  return `${out.join("\n\n")}\n`;
}
