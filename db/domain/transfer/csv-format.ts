// A CSV sheet: a header row naming the columns (title required; content, date, label and characters
// optional, in any order), then one event per row. RFC 4180 quoting: fields in double quotes may
// hold commas, line breaks and doubled quotes. The separator is the header row's: comma, semicolon (Excel in
// much of Europe) or tab (.tsv). An .xlsx or .ods sheet becomes the same rows (spreadsheet.ts).
import { limits } from "../rules";
import { type DateOrder, fileDateOrder, readSheetDate, unreadableDate } from "./sheet-dates";
import {
  type ParseResult,
  type TransferEvent,
  addLink,
  checkCounts,
  checkEvent,
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
  content: ["content", "description", "text"],
  /** An outline's synopsis and notes land beside the text (DESIGN §12), never in it. */
  synopsis: ["synopsis", "summary"],
  notes: ["notes", "note"],
  date: ["date", "story date", "when", "story time"],
  label: ["label", "story label"],
  characters: ["characters", "character", "entities", "codex", "who"],
} as const;

export type SheetRecord = { line: number; fields: string[] };
export type SheetOptions = { title?: string; dateOrder?: DateOrder };
/** A sheet's parse, and how its dates read day and month (`ambiguous`: no date in it shows the order). */
export type SheetResult = ParseResult & { dates?: { order: DateOrder; ambiguous: boolean } };

/** The separator the header row uses most, outside quotes: tab, semicolon or comma (the default). */
function separatorOf(text: string) {
  const counts: Record<string, number> = { "\t": 0, ";": 0, ",": 0 };
  let quoted = false;
  for (const ch of text) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  return (["\t", ";"] as const).find((d) => counts[d] > 0 && counts[d] >= counts[","]) ?? ",";
}

/** Records with the line each starts on. */
export function parseCsvRecords(text: string): { ok: true; records: SheetRecord[] } | { ok: false; line: number; error: string } {
  const delimiter = separatorOf(text);
  const records: SheetRecord[] = [];
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

/** A date cell: a story date or a spreadsheet's date, a range (`a – b`, `a to b`, `a..b`), or else a free label. */
function parseDateCell(where: string, value: string, order: DateOrder) {
  const v = value.trim();
  if (!v) return { storyStart: null, storyEnd: null, storyLabel: null };
  const read = (part: string) => {
    const date = readSheetDate(part, order);
    if (date && !date.ok) fail(where, unreadableDate(part, date.reason));
    return date?.ok ? date.value : null;
  };
  const whole = readSheetDate(v, order);
  if (whole?.ok) return { storyStart: whole.value, storyEnd: null, storyLabel: null };
  const [start, end] = v.split(/\s+[–—]\s+|\s+to\s+|\.\./).map((s) => s.trim());
  if (end !== undefined && readSheetDate(start, order) && readSheetDate(end, order))
    return { storyStart: read(start), storyEnd: read(end), storyLabel: null };
  read(v);
  return { storyStart: null, storyEnd: null, storyLabel: v };
}

export function parseCsv(text: string, options: SheetOptions = {}): SheetResult {
  const parsed = parseCsvRecords(text);
  if (!parsed.ok) return { ok: false, error: `Line ${parsed.line}: ${parsed.error}` };
  return parseSheetRecords(parsed.records, options);
}

/** A sheet's rows (from a CSV or a spreadsheet) as a timeline: the header row names the columns. */
export function parseSheetRecords(all: SheetRecord[], options: SheetOptions = {}): SheetResult {
  let dates: SheetResult["dates"];
  const result = run(() => {
    const records = all.filter((r) => !isBlank(r.fields));
    const header = records.shift();
    if (!header) return fail("Line 1", "the file is empty (a header row with a title column is required)");
    const names = header.fields.map((f) => f.trim().toLowerCase());
    const column = (key: keyof typeof COLUMNS) => names.findIndex((n) => (COLUMNS[key] as readonly string[]).includes(n));
    const at = {
      title: column("title"),
      content: column("content"),
      synopsis: column("synopsis"),
      notes: column("notes"),
      date: column("date"),
      label: column("label"),
      characters: column("characters"),
    };
    if (at.title < 0) fail(`Line ${header.line}`, "the header row must have a title column (title, content, date, characters)");
    if (records.length > importLimits.events)
      fail(`Line ${records[importLimits.events].line}`, `at most ${fmt(importLimits.events)} events can be imported at once`);

    dates = fileDateOrder(at.date < 0 ? [] : records.map((r) => r.fields[at.date] ?? ""));
    const order = options.dateOrder ?? dates.order;
    const timelineTitle = (options.title ?? "").trim().slice(0, limits.timelineTitle) || "Imported timeline";
    const doc = newDocument(timelineTitle, null);
    const addEntity = codexOf(doc);
    const cell = (fields: string[], i: number) => (i >= 0 ? (fields[i] ?? "") : "");
    for (const record of records) {
      const where = `Line ${record.line}`;
      const date = parseDateCell(where, cell(record.fields, at.date), order);
      const label = cell(record.fields, at.label).trim();
      const event: TransferEvent = {
        ...emptyEvent(),
        title: cell(record.fields, at.title).trim(),
        content: cell(record.fields, at.content).replace(/\r\n?/g, "\n").trim(),
        ...date,
        ...(label ? { storyLabel: label } : {}),
      };
      const synopsis = cell(record.fields, at.synopsis).replace(/\r\n?/g, "\n").trim();
      const notes = cell(record.fields, at.notes).replace(/\r\n?/g, "\n").trim();
      if (synopsis) event.synopsis = synopsis;
      if (notes) event.notes = notes;
      for (const raw of cell(record.fields, at.characters).split(/[;,]/)) addLink(where, event, addEntity, raw, "character");
      checkEvent(where, event);
      doc.events.push(event);
    }
    checkCounts("File", doc.events.length, doc.entities.length);
    return doc;
  });
  return result.ok ? { ...result, dates } : result;
}
