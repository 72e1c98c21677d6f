import { AlignmentType, Document, HeadingLevel, Packer, Paragraph, TextRun } from "docx";
import { type TimelineDocument, type TransferEvent, codexLines, formatStoryTime } from "../../db/domain/timeline-transfer";

// The Word export: a title page, then one heading per event in story order with its
// story time and codex entries under it, then the event's text. `docx` is pure JS and packs the
// zip with fflate, so it runs in workerd (nodejs_compat) without Node's Buffer.

type Span = { text: string; bold?: true; italics?: true };

const isWordChar = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
// What a regex `.` does not match: a marked span never runs across one.
const isLineBreak = (code: number) => code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
const isSpace = (ch: string | undefined) => ch !== undefined && /\s/.test(ch);

/**
 * `**bold**`, `*italic*` / `_italic_` inside a line, left to right, the first marker that closes
 * winning: `**x**` (closed by the next `**`), `*x*` (no space after the opening star, closed by the
 * next star), `_x_` (not inside a word on either side). Linear in the line's length: one backward pass
 * notes where the next closing marker of each kind and the next line break are, so an opening marker
 * that never closes costs one lookup, not a scan to the end of the line (a regex with lazy groups did
 * that scan at every such marker: quadratic).
 */
export function formattingSpans(line: string): Span[] {
  const n = line.length;
  const nextDouble = new Int32Array(n + 2).fill(n);
  const nextStar = new Int32Array(n + 2).fill(n);
  const nextUnderscore = new Int32Array(n + 2).fill(n);
  const nextBreak = new Int32Array(n + 2).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    const code = line.charCodeAt(i);
    nextStar[i] = code === 42 ? i : nextStar[i + 1];
    nextDouble[i] = code === 42 && line.charCodeAt(i + 1) === 42 ? i : nextDouble[i + 1];
    nextUnderscore[i] = code === 95 && !(i + 1 < n && isWordChar(line.charCodeAt(i + 1))) ? i : nextUnderscore[i + 1];
    nextBreak[i] = isLineBreak(code) ? i : nextBreak[i + 1];
  }
  // A span from `from` closed at `close` (n: never) holds at least one character and no line break.
  const closes = (from: number, close: number) => close < n && nextBreak[from] >= close;
  const spans: Span[] = [];
  let plainFrom = 0;
  let i = 0;
  const emit = (end: number, span: Span) => {
    if (i > plainFrom) spans.push({ text: line.slice(plainFrom, i) });
    spans.push(span);
    i = end;
    plainFrom = end;
  };
  while (i < n) {
    const code = line.charCodeAt(i);
    if (code === 42) {
      if (line.charCodeAt(i + 1) === 42 && closes(i + 2, nextDouble[i + 3])) {
        const close = nextDouble[i + 3];
        emit(close + 2, { text: line.slice(i + 2, close), bold: true });
        continue;
      }
      if (!isSpace(line[i + 1]) && closes(i + 1, nextStar[i + 2])) {
        const close = nextStar[i + 2];
        emit(close + 1, { text: line.slice(i + 1, close), italics: true });
        continue;
      }
    } else if (code === 95 && (i === 0 || !isWordChar(line.charCodeAt(i - 1)))) {
      if (!isSpace(line[i + 1]) && closes(i + 1, nextUnderscore[i + 2])) {
        const close = nextUnderscore[i + 2];
        emit(close + 1, { text: line.slice(i + 1, close), italics: true });
        continue;
      }
    }
    i++;
  }
  if (plainFrom < n) spans.push({ text: line.slice(plainFrom) });
  return spans;
}

function runsOf(line: string, base: { italics?: boolean; color?: string } = {}) {
  return formattingSpans(line).map((span) =>
    span.bold
      ? new TextRun({ text: span.text, bold: true, ...base })
      : new TextRun({ text: span.text, ...base, ...(span.italics ? { italics: true } : {}) }),
  );
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
