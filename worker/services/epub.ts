import { type Zippable, strToU8, zipSync } from "fflate";
import { markdownToHtml } from "../../db/domain/render-text";
import type { Manuscript } from "./manuscript";

// The book as an EPUB 3 for e-readers (checked with epubcheck): the `mimetype` entry first and stored, the
// container, a package document, a navigation document, a title page and one XHTML document per chapter (one
// for the whole text without chapters), scene breaks as a centred ⁂. Scene text goes through the same renderer
// as the manuscript view (render-text.ts); its HTML is made XHTML here (void elements closed, characters XML
// does not allow dropped). An e-reader keeps its place across new exports: the identifier is the timeline's.

/** Characters XML 1.0 does not allow: C0 controls but tab/newline/return, lone surrogates, U+FFFE/U+FFFF. */
const NOT_XML =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point.
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export const escapeXml = (text: string) =>
  text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c] ?? c);

const SCENE_BREAK = '<p class="scene-break">⁂</p>';

/**
 * The renderer's HTML as XHTML: its text is escaped, so `<br>` and `<hr …>` are always its own void elements. A
 * scene break typed in a scene reads like the one between scenes.
 */
const toXhtml = (html: string) =>
  html
    .replace(NOT_XML, "")
    .replace(/<br>/g, "<br/>")
    .replace(/<hr[^>]*>/g, SCENE_BREAK);

/** The book's language from its letters (e-readers pick fonts and hyphenation by it): English unless the script says. */
export function bookLanguage(text: string) {
  const count = (re: RegExp) => text.match(re)?.length ?? 0;
  const scripts: [string, number][] = [
    [
      "ja",
      count(/[\p{Script=Hiragana}\p{Script=Katakana}]/gu) * 4 +
        (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text) ? count(/\p{Script=Han}/gu) : 0),
    ],
    ["zh", /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text) ? 0 : count(/\p{Script=Han}/gu)],
    ["ko", count(/\p{Script=Hangul}/gu)],
    ["ar", count(/\p{Script=Arabic}/gu)],
    ["he", count(/\p{Script=Hebrew}/gu)],
    ["ru", count(/\p{Script=Cyrillic}/gu)],
    ["el", count(/\p{Script=Greek}/gu)],
    ["en", count(/\p{Script=Latin}/gu)],
  ];
  const [lang, letters] = scripts.reduce((best, next) => (next[1] > best[1] ? next : best));
  return letters > 0 ? lang : "en";
}

/** A name-based (version 5) UUID of the book's key, so every export of a timeline is the same book. */
async function bookUuid(key: string) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-1", strToU8(`storyweave:${key}`))).slice(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const xhtml = (lang: string, title: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="${lang}" xml:lang="${lang}">
<head>
<meta charset="UTF-8"/>
<title>${escapeXml(title)}</title>
<link rel="stylesheet" type="text/css" href="style.css"/>
</head>
<body>
${body}
</body>
</html>
`;

const STYLE = `body { font-family: serif; line-height: 1.5; margin: 0 4%; }
h1 { font-size: 1.5em; text-align: center; margin: 2em 0 1.5em; }
p { margin: 0; text-indent: 1.5em; }
h1 + p, h2 + p, h3 + p, .scene-break + p, blockquote p, li p { text-indent: 0; }
.scene-break { text-align: center; text-indent: 0; margin: 1em 0; }
blockquote { margin: 1em 2em; }
.title-page { text-align: center; margin-top: 30%; }
.title-page h1 { font-size: 2em; margin-bottom: 1em; }
.title-page p { text-indent: 0; }
`;

/** What e-readers' own interface strings around the book read (they are English like the rest of StoryWeave). */
const en = ' lang="en" xml:lang="en"';

type Doc = { id: string; href: string; label: string | null; body: string; title: string };

function partDocs(book: Manuscript): Doc[] {
  return book.parts.map((part, i) => {
    const heading = part.title === null ? "" : `<h1 dir="auto">${escapeXml(part.title)}</h1>\n`;
    const scenes = part.scenes.map((scene) => toXhtml(markdownToHtml(scene, 2))).join(`\n${SCENE_BREAK}\n`);
    // Without chapters the text is one document, listed under the book's title.
    const label = part.title ?? (book.parts.length === 1 ? book.title : null);
    return {
      id: `part-${i + 1}`,
      href: `part-${i + 1}.xhtml`,
      label,
      title: part.title ?? book.title,
      body: `<section epub:type="${part.title === null ? "bodymatter" : "chapter"}">\n${heading}${scenes}\n</section>`,
    };
  });
}

function navDoc(lang: string, docs: Doc[]) {
  const toc = [
    `<li><a href="title.xhtml"${en}>Title page</a></li>`,
    ...docs.filter((d) => d.label !== null).map((d) => `<li dir="auto"><a href="${d.href}">${escapeXml(d.label ?? "")}</a></li>`),
  ];
  const landmarks = [
    `<li><a epub:type="titlepage" href="title.xhtml">Title page</a></li>`,
    ...(docs[0] ? [`<li><a epub:type="bodymatter" href="${docs[0].href}">Start of the text</a></li>`] : []),
  ];
  return xhtml(
    lang,
    "Contents",
    `<nav epub:type="toc" id="toc">\n<h1${en}>Contents</h1>\n<ol>\n${toc.join("\n")}\n</ol>\n</nav>
<nav epub:type="landmarks" id="landmarks" hidden="hidden"${en}>\n<h2>Landmarks</h2>\n<ol>\n${landmarks.join("\n")}\n</ol>\n</nav>`,
  );
}

function packageDoc(book: Manuscript, lang: string, uuid: string, docs: Doc[], modified: string) {
  const items = docs.map((d) => `<item id="${d.id}" href="${d.href}" media-type="application/xhtml+xml"/>`);
  const spine = docs.map((d) => `<itemref idref="${d.id}"/>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${lang}">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:identifier id="book-id">urn:uuid:${uuid}</dc:identifier>
<dc:title>${escapeXml(book.title)}</dc:title>
<dc:creator>${escapeXml(book.author.name)}</dc:creator>
<dc:language>${lang}</dc:language>
<meta property="dcterms:modified">${modified}</meta>
</metadata>
<manifest>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
<item id="style" href="style.css" media-type="text/css"/>
<item id="title-page" href="title.xhtml" media-type="application/xhtml+xml"/>
${items.join("\n")}
</manifest>
<spine>
<itemref idref="title-page"/>
${spine.join("\n")}
</spine>
</package>
`;
}

const CONTAINER = `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles>
<rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
</rootfiles>
</container>
`;

export async function renderEpub(book: Manuscript, now = new Date()): Promise<ArrayBuffer> {
  const lang = bookLanguage([book.title, ...book.parts.flatMap((p) => [p.title ?? "", ...p.scenes])].join("\n"));
  const docs = partDocs(book);
  const modified = now.toISOString().replace(/\.\d+Z$/, "Z");
  const titlePage = xhtml(
    lang,
    book.title,
    `<section epub:type="titlepage" class="title-page">\n<h1 dir="auto">${escapeXml(book.title)}</h1>\n<p dir="auto">${escapeXml(
      `by ${book.author.name}`,
    )}</p>\n</section>`,
  );
  const text = (s: string) => strToU8(s);
  const files: Zippable = {
    // First and stored, so a reader finds the type at a fixed offset.
    mimetype: [text("application/epub+zip"), { level: 0 }],
    "META-INF/container.xml": text(CONTAINER),
    "OEBPS/content.opf": text(packageDoc(book, lang, await bookUuid(book.bookKey), docs, modified)),
    "OEBPS/nav.xhtml": text(navDoc(lang, docs)),
    "OEBPS/style.css": text(STYLE),
    "OEBPS/title.xhtml": text(titlePage),
    ...Object.fromEntries(docs.map((d) => [`OEBPS/${d.href}`, text(xhtml(lang, d.title, d.body))])),
  };
  return new Uint8Array(zipSync(files, { level: 9, mtime: now })).buffer;
}
