import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from "docx";
import { type TimelineDocument, type TransferEvent, codexLines, formatStoryTime } from "../../db/timeline-transfer";

// The Word export (DESIGN.md §10): a title page, then one heading per event in story order with its
// story time and codex entries under it, then the event's text. `docx` is pure JS and packs the
// zip with fflate, so it runs in workerd (nodejs_compat) without Node's Buffer.

/** `**bold**`, `*italic*` / `_italic_` inside a line become formatted runs; the rest is plain text. */
function runsOf(line: string, base: { italics?: boolean; color?: string } = {}) {
  const runs: TextRun[] = [];
  const pattern = /\*\*(.+?)\*\*|\*(?!\s)(.+?)\*|(?<![\w])_(?!\s)(.+?)_(?![\w])/g;
  let last = 0;
  for (const m of line.matchAll(pattern)) {
    if (m.index > last) runs.push(new TextRun({ text: line.slice(last, m.index), ...base }));
    if (m[1] !== undefined) runs.push(new TextRun({ text: m[1], bold: true, ...base }));
    else runs.push(new TextRun({ text: m[2] ?? m[3], ...base, italics: true }));
    last = m.index + m[0].length;
  }
  if (last < line.length) runs.push(new TextRun({ text: line.slice(last), ...base }));
  return runs;
}

/** The event's text: one paragraph per line, `- ` items as bullets, `#` lines as sub-headings. */
function contentParagraphs(content: string) {
  return content
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      const heading = /^(#{1,3})\s+(.*)$/.exec(line);
      if (heading) return new Paragraph({ heading: HeadingLevel.HEADING_3, children: runsOf(heading[2]) });
      const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
      if (bullet) return new Paragraph({ bullet: { level: 0 }, children: runsOf(bullet[1]) });
      return new Paragraph({ spacing: { after: 120 }, children: runsOf(line) });
    });
}

function eventParagraphs(event: TransferEvent, doc: TimelineDocument) {
  const meta = [
    ...(formatStoryTime(event) ? [["Story time", formatStoryTime(event)] as const] : []),
    ...codexLines(event, doc.entities),
  ].map(
    ([label, value]) =>
      new Paragraph({
        spacing: { after: 60 },
        children: [
          new TextRun({ text: `${label}: `, bold: true, color: "555555" }),
          new TextRun({ text: value, italics: true, color: "555555" }),
        ],
      }),
  );
  return [
    new Paragraph({ heading: HeadingLevel.HEADING_1, keepNext: true, spacing: { before: 360 }, children: [new TextRun(event.title)] }),
    ...meta,
    ...contentParagraphs(event.content),
  ];
}

export async function renderDocx(doc: TimelineDocument): Promise<ArrayBuffer> {
  const count = doc.events.length;
  const titlePage = [
    new Paragraph({
      heading: HeadingLevel.TITLE,
      alignment: AlignmentType.CENTER,
      spacing: { before: 3000, after: 400 },
      children: [new TextRun(doc.timeline.title)],
    }),
    ...(doc.timeline.description ?? "")
      .split("\n")
      .filter((line) => line.trim())
      .map(
        (line) => new Paragraph({ alignment: AlignmentType.CENTER, spacing: { after: 120 }, children: runsOf(line, { italics: true }) }),
      ),
    new Paragraph({
      alignment: AlignmentType.CENTER,
      spacing: { before: 600 },
      children: [new TextRun({ text: `${count} ${count === 1 ? "event" : "events"} · exported from StoryWeave`, color: "666666" })],
    }),
  ];
  const document = new Document({
    title: doc.timeline.title,
    description: doc.timeline.description ?? undefined,
    creator: "StoryWeave",
    // A section per part: the events start on a new page after the title page.
    sections: [
      { children: titlePage },
      { children: count > 0 ? doc.events.flatMap((event) => eventParagraphs(event, doc)) : [new Paragraph("No events yet.")] },
    ],
  });
  return Packer.pack(document, "arraybuffer");
}
