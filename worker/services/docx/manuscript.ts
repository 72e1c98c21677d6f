import { AlignmentType, Document, Header, HeadingLevel, Packer, PageNumber, Paragraph, TabStopType, TextRun } from "docx";
import { type Manuscript, roundedWordCount, surnameOf } from "../manuscript";
import { contentParagraphs } from "./blocks";
import { isRightToLeft, plainRuns } from "./inline";
import { INCH, TEXT_WIDTH, manuscriptStyles } from "./manuscript-styles";
import { ListNumbering, MANUSCRIPT_SCENE_BREAK, SCENE_BREAK_STYLE } from "./styles";

// The book in standard manuscript format, as an agent expects it: a title page (contact details top left, word
// count top right, title and byline halfway down), then the text with 'Surname / TITLE / page' at the top right
// of every page, each chapter on a new page, '#' between scenes. No planning notes: scene titles, story dates
// and the codex are the writer's labels, not the book's.

const TITLE_LINE = "TitlePageLine";

const bidi = (text: string) => (isRightToLeft(text) ? { bidirectional: true } : {});

function titlePage(book: Manuscript) {
  const { name, legalName, email } = book.author;
  const centred = (text: string, before = 0) =>
    new Paragraph({
      alignment: AlignmentType.CENTER,
      indent: { firstLine: 0 },
      ...(before ? { spacing: { before } } : {}),
      children: plainRuns(text, isRightToLeft(text)),
    });
  return [
    new Paragraph({
      style: TITLE_LINE,
      tabStops: [{ type: TabStopType.RIGHT, position: TEXT_WIDTH }],
      // The contact block is the writer's legal name; the byline (a pen name, co-authors) goes under the title.
      children: [new TextRun(legalName), new TextRun({ text: `\t${roundedWordCount(book.wordCount)}` })],
    }),
    new Paragraph({ style: TITLE_LINE, children: [new TextRun(email)] }),
    // Halfway down the page: the title, then the byline.
    new Paragraph({
      heading: HeadingLevel.TITLE,
      ...bidi(book.title),
      spacing: { before: 4 * INCH },
      children: plainRuns(book.title, isRightToLeft(book.title)),
    }),
    centred(`by ${name}`),
  ];
}

function header(book: Manuscript) {
  return new Header({
    children: [
      new Paragraph({
        style: "ManuscriptHeader",
        children: [
          new TextRun(`${surnameOf(book.author.name)} / ${book.title.toLocaleUpperCase("en-US")} / `),
          new TextRun({ children: [PageNumber.CURRENT] }),
        ],
      }),
    ],
  });
}

function textParagraphs(book: Manuscript, numbering: ListNumbering) {
  const out: Paragraph[] = [];
  book.parts.forEach((part, index) => {
    // The text's first part follows the title page's section break; every later one starts a new page.
    const newPage = index > 0;
    if (part.title !== null) {
      out.push(
        new Paragraph({
          heading: HeadingLevel.HEADING_1,
          ...(newPage ? { pageBreakBefore: true } : {}),
          ...bidi(part.title),
          children: plainRuns(part.title, isRightToLeft(part.title)),
        }),
      );
    }
    part.scenes.forEach((scene, i) => {
      if (i > 0) out.push(new Paragraph({ style: SCENE_BREAK_STYLE, children: [new TextRun(MANUSCRIPT_SCENE_BREAK)] }));
      const pageBreakBefore = newPage && part.title === null && i === 0;
      // A chapter's first paragraph and the first after a scene break are set flush left.
      out.push(...contentParagraphs(scene, numbering, { manuscript: true, pageBreakBefore, flushFirst: true }));
    });
  });
  return out;
}

export async function renderManuscriptDocx(book: Manuscript): Promise<ArrayBuffer> {
  const numbering = new ListNumbering();
  const text = textParagraphs(book, numbering);
  // US Letter, as the format asks for.
  const page = { size: { width: 8.5 * INCH, height: 11 * INCH }, margin: { top: INCH, right: INCH, bottom: INCH, left: INCH } };
  const document = new Document({
    title: book.title,
    creator: book.author.name,
    styles: manuscriptStyles,
    numbering: { config: numbering.config },
    sections: [
      { properties: { page }, children: titlePage(book) },
      {
        properties: { page: { ...page, pageNumbers: { start: 1 } } },
        headers: { default: header(book) },
        children: text.length > 0 ? text : [new Paragraph("")],
      },
    ],
  });
  return Packer.pack(document, "arraybuffer");
}
