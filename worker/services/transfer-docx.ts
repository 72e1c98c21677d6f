import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from "docx";
import { type TimelineDocument, type TransferEvent, codexLines, formatStoryTime } from "../../db/domain/timeline-transfer";
import { datesInWords } from "../../db/domain/transfer/document";
import { contentParagraphs } from "./docx/blocks";
import { isRightToLeft, plainRuns } from "./docx/inline";
import { ListNumbering, documentStyles } from "./docx/styles";

// The Word export: a title page, then the events in story order, each a heading with its story time and codex
// entries under it, then its text (worker/services/docx/). A book with chapters keeps them: each chapter is a
// Heading 1 on a new page and its scenes are Heading 2; scenes outside any chapter stay Heading 1. `docx` is pure JS and packs
// the zip with fflate, so it runs in workerd (nodejs_compat) without Node's Buffer.

const META_COLOR = "555555";

function eventParagraphs(event: TransferEvent, doc: TimelineDocument, numbering: ListNumbering, notes: boolean, inChapter: boolean) {
  const meta = (
    notes ? [...(formatStoryTime(event) ? [["Story time", formatStoryTime(event)] as const] : []), ...codexLines(event, doc.entities)] : []
  ).map(
    ([label, value]) =>
      new Paragraph({
        spacing: { after: 60 },
        children: [
          new TextRun({ text: `${label}: `, bold: true, color: META_COLOR }),
          new TextRun({ text: value, italics: true, color: META_COLOR }),
        ],
      }),
  );
  const rtl = isRightToLeft(event.title);
  return [
    new Paragraph({
      heading: inChapter ? HeadingLevel.HEADING_2 : HeadingLevel.HEADING_1,
      ...(rtl ? { bidirectional: true } : {}),
      children: plainRuns(event.title, rtl),
    }),
    ...meta,
    ...contentParagraphs(event.content, numbering, { headingBelow: inChapter ? 2 : 1 }),
  ];
}

/** The events in story order, each chapter's title before its first scene. */
function bodyParagraphs(doc: TimelineDocument, numbering: ListNumbering, notes: boolean) {
  const chapters = doc.chapters ?? [];
  const out: Paragraph[] = [];
  let current: number | null = null;
  for (const event of doc.events) {
    const chapter = event.chapter ?? null;
    const inChapter = chapter !== null && chapters[chapter] !== undefined;
    if (inChapter && chapter !== current) {
      const title = chapters[chapter].title;
      const rtl = isRightToLeft(title);
      out.push(
        new Paragraph({
          heading: HeadingLevel.HEADING_1,
          // The first chapter follows the title page's section break; every later one starts a page.
          ...(out.length > 0 ? { pageBreakBefore: true } : {}),
          ...(rtl ? { bidirectional: true } : {}),
          children: plainRuns(title, rtl),
        }),
      );
    }
    current = inChapter ? chapter : null;
    out.push(...eventParagraphs(event, doc, numbering, notes, inChapter));
  }
  return out;
}

function countLine(doc: TimelineDocument) {
  const scenes = doc.events.length;
  const chapters = new Set(doc.events.map((e) => e.chapter).filter((c) => c !== null && c !== undefined)).size;
  const plural = (n: number, one: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : `${one}s`}`;
  return chapters > 0 ? `${plural(chapters, "chapter")} · ${plural(scenes, "scene")}` : plural(scenes, "scene");
}

function titlePage(doc: TimelineDocument, byline: string | undefined) {
  const centred = (text: string, options: { italics?: true; color?: string }) => {
    const rtl = isRightToLeft(text);
    return new Paragraph({
      alignment: AlignmentType.CENTER,
      ...(rtl ? { bidirectional: true } : {}),
      spacing: { after: 120 },
      children: plainRuns(text, rtl, options),
    });
  };
  const titleRtl = isRightToLeft(doc.timeline.title);
  return [
    new Paragraph({
      heading: HeadingLevel.TITLE,
      alignment: AlignmentType.CENTER,
      ...(titleRtl ? { bidirectional: true } : {}),
      spacing: { before: 3000, after: 400 },
      children: plainRuns(doc.timeline.title, titleRtl),
    }),
    // The description is plain text, as typed.
    ...(doc.timeline.description ?? "")
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => centred(line, { italics: true })),
    ...(byline ? [centred(`by ${byline}`, {})] : []),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      spacing: { before: 600 },
      children: [new TextRun({ text: countLine(doc), color: "666666" })],
    }),
  ];
}

/** `notes: false` leaves the planning notes (story time, codex) out; `byline` goes on the title page. */
export async function renderDocx(
  doc: TimelineDocument,
  { notes = true, locale, byline }: { notes?: boolean; locale?: string; byline?: string } = {},
): Promise<ArrayBuffer> {
  const numbering = new ListNumbering();
  const events = bodyParagraphs(datesInWords(doc, locale), numbering, notes);
  const document = new Document({
    title: doc.timeline.title,
    description: doc.timeline.description ?? undefined,
    creator: byline ?? "StoryWeave",
    styles: documentStyles,
    numbering: { config: numbering.config },
    // A section per part: the events start on a new page after the title page.
    sections: [{ children: titlePage(doc, byline) }, { children: events.length > 0 ? events : [new Paragraph("No events yet.")] }],
  });
  return Packer.pack(document, "arraybuffer");
}
