import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from "docx";
import { type TimelineDocument, type TransferEvent, codexLines, formatStoryTime } from "../../db/domain/timeline-transfer";
import { datesInWords } from "../../db/domain/transfer/document";
import { contentParagraphs } from "./docx/blocks";
import { isRightToLeft, plainRuns } from "./docx/inline";
import { ListNumbering, documentStyles } from "./docx/styles";

// The Word export: a title page, then one Heading 1 per event in story order with its story time and
// codex entries under it, then the event's text (worker/services/docx/). `docx` is pure JS and packs
// the zip with fflate, so it runs in workerd (nodejs_compat) without Node's Buffer.

const META_COLOR = "555555";

function eventParagraphs(event: TransferEvent, doc: TimelineDocument, numbering: ListNumbering, notes: boolean) {
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
    new Paragraph({ heading: HeadingLevel.HEADING_1, ...(rtl ? { bidirectional: true } : {}), children: plainRuns(event.title, rtl) }),
    ...meta,
    ...contentParagraphs(event.content, numbering),
  ];
}

function titlePage(doc: TimelineDocument) {
  const count = doc.events.length;
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
    new Paragraph({
      alignment: AlignmentType.CENTER,
      spacing: { before: 600 },
      children: [new TextRun({ text: `${count} ${count === 1 ? "event" : "events"} · exported from StoryWeave`, color: "666666" })],
    }),
  ];
}

/** `notes: false` leaves the planning notes (story time, codex) out. */
export async function renderDocx(
  doc: TimelineDocument,
  { notes = true, locale }: { notes?: boolean; locale?: string } = {},
): Promise<ArrayBuffer> {
  const numbering = new ListNumbering();
  const events = datesInWords(doc, locale).events.flatMap((event) => eventParagraphs(event, doc, numbering, notes));
  const document = new Document({
    title: doc.timeline.title,
    description: doc.timeline.description ?? undefined,
    creator: "StoryWeave",
    styles: documentStyles,
    numbering: { config: numbering.config },
    // A section per part: the events start on a new page after the title page.
    sections: [{ children: titlePage(doc) }, { children: events.length > 0 ? events : [new Paragraph("No events yet.")] }],
  });
  return Packer.pack(document, "arraybuffer");
}
