// A CSV sheet: a header row naming the columns (title required; content, date, label and characters
// optional, in any order), then one event per row. RFC 4180 quoting: fields in double quotes may
// hold commas, line breaks and doubled quotes. Excel's semicolon-separated sheets work too.
import { limits } from "../rules";
import { parseStoryDate } from "../story-date";
import {
  type ParseResult,
  type TransferEvent,
  addLink,
  checkCounts,
  checkEvent,
  checkStoryDate,
  codexOf,
  emptyEvent,
  fail,
  fmt,
  importLimits,
  newDocument,
  run,
} from "./document";
const COLUMNS = {
  title: ["title", "name", "event", "scene"],
  content: ["content", "description", "summary", "text", "notes", "synopsis"],
  date: ["date", "story date", "when", "story time"],
  label: ["label", "story label"],
  characters: ["characters", "character", "entities", "codex", "who"],
} as const;

type CsvRecord = { line: number; fields: string[] };

/** Records with the line each starts on. */
export function parseCsvRecords(text: string): { ok: true; records: CsvRecord[] } | { ok: false; line: number; error: string } {
  const headerEnd = text.search(/\r|\n/);
  const header = headerEnd < 0 ? text : text.slice(0, headerEnd);
  const delimiter = (header.match(/;/g)?.length ?? 0) > (header.match(/,/g)?.length ?? 0) ? ";" : ",";
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = "";
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let afterQuote = false;
  const endField = () => {
    fields.push(field);
    field = "";
    afterQuote = false;
  };
  const endRecord = () => {
    endField();
    records.push({ line: recordLine, fields });
    fields = [];
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
        afterQuote = true;
      } else {
        if (ch === "\n" || (ch === "\r" && text[i + 1] !== "\n")) line++;
        field += ch;
      }
      continue;
    }
    if (ch === delimiter) endField();
    else if (ch === "\r" || ch === "\n") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      endRecord();
      line++;
      recordLine = line;
    } else if (afterQuote) {
      if (ch !== " " && ch !== "\t") return { ok: false, line, error: "unexpected text after a closing quote" };
    } else if (ch === '"' && field.trim() === "") {
      quoted = true;
      field = "";
    } else field += ch;
  }
  if (quoted) return { ok: false, line: recordLine, error: "a quoted field is not closed" };
  if (field !== "" || fields.length > 0 || afterQuote) endRecord();
  return { ok: true, records };
}

const isBlank = (fields: string[]) => fields.every((f) => !f.trim());

/** A date cell: a story date, a range (`a – b`, `a to b`, `a..b`), or else a free label. */
function parseDateCell(where: string, value: string) {
  const v = value.trim();
  if (!v) return { storyStart: null, storyEnd: null, storyLabel: null };
  const [start, end] = v.split(/\s+[–—]\s+|\s+to\s+|\.\./).map((s) => s.trim());
  if (end !== undefined && parseStoryDate(start).ok && parseStoryDate(end).ok)
    return { storyStart: start, storyEnd: end, storyLabel: null };
  if (parseStoryDate(v).ok) return { storyStart: v, storyEnd: null, storyLabel: null };
  // Something that looks like a calendar date but is not one of ours is a mistake worth naming.
  if (/^-?\d+([-/.]\d+)+(T[\d:]+)?$/.test(v) || /^-?\d{7,}$/.test(v)) checkStoryDate(where, "date", v);
  return { storyStart: null, storyEnd: null, storyLabel: v };
}

export function parseCsv(text: string, title?: string): ParseResult {
  return run(() => {
    const parsed = parseCsvRecords(text);
    if (!parsed.ok) return fail(`Line ${parsed.line}`, parsed.error);
    const records = parsed.records.filter((r) => !isBlank(r.fields));
    const header = records.shift();
    if (!header) return fail("Line 1", "the file is empty (a header row with a title column is required)");
    const names = header.fields.map((f) => f.trim().toLowerCase());
    const column = (key: keyof typeof COLUMNS) => names.findIndex((n) => (COLUMNS[key] as readonly string[]).includes(n));
    const at = {
      title: column("title"),
      content: column("content"),
      date: column("date"),
      label: column("label"),
      characters: column("characters"),
    };
    if (at.title < 0) fail(`Line ${header.line}`, "the header row must have a title column (title, content, date, characters)");
    if (records.length > importLimits.events)
      fail(`Line ${records[importLimits.events].line}`, `at most ${fmt(importLimits.events)} events can be imported at once`);

    const timelineTitle = (title ?? "").trim().slice(0, limits.timelineTitle) || "Imported timeline";
    const doc = newDocument(timelineTitle, null);
    const addEntity = codexOf(doc);
    const cell = (fields: string[], i: number) => (i >= 0 ? (fields[i] ?? "") : "");
    for (const record of records) {
      const where = `Line ${record.line}`;
      const date = parseDateCell(where, cell(record.fields, at.date));
      const label = cell(record.fields, at.label).trim();
      const event: TransferEvent = {
        ...emptyEvent(),
        title: cell(record.fields, at.title).trim(),
        content: cell(record.fields, at.content).replace(/\r\n?/g, "\n").trim(),
        ...date,
        ...(label ? { storyLabel: label } : {}),
      };
      for (const raw of cell(record.fields, at.characters).split(/[;,]/)) addLink(where, event, addEntity, raw, "character");
      checkEvent(where, event);
      doc.events.push(event);
    }
    checkCounts("File", doc.events.length, doc.entities.length);
    return doc;
  });
}
