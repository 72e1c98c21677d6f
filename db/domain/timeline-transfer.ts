// A timeline out of StoryWeave and back in: the StoryWeave JSON
// document, the Markdown outline and the CSV sheet. Pure and zod-free, so the import dialog previews a
// file with exactly the parser the server runs on it, and errors name the line in both places.
import { type EntityKind, defaultEntityColor, entityKinds, entityLimits, limits } from "./rules";
import { isStoryRangeOrdered, parseStoryDate, storyDateReason } from "./story-date";
import { EventContentSchema, EventTitleSchema } from "./validation";

export const TRANSFER_FORMAT = "storyweave-timeline";
export const TRANSFER_VERSION = 1;

/** What one import may create (the request body is also capped at 1 MB: 413). */
export const importLimits = { events: 5000, entities: 1000, linksPerEvent: 100, storyLabel: 100 } as const;

export type TransferAttachment = { filename: string; contentType: string; size: number };
export type TransferEntity = { kind: EntityKind; name: string; aliases: string[]; description: string; color: string };
export type TransferEvent = {
  title: string;
  content: string;
  storyStart: string | null;
  storyEnd: string | null;
  storyLabel: string | null;
  /** Names of the linked codex entries, in codex order. */
  entities: string[];
  /** The point-of-view entry's name: one of `entities`. */
  pov: string | null;
  attachments: TransferAttachment[];
};
/** The JSON export, and what every import format becomes. Events in story order. */
export type TimelineDocument = {
  format: typeof TRANSFER_FORMAT;
  version: typeof TRANSFER_VERSION;
  timeline: { title: string; description: string | null };
  entities: TransferEntity[];
  events: TransferEvent[];
};

export type ImportFormat = "json" | "md" | "csv";
export type ParseResult = { ok: true; document: TimelineDocument } | { ok: false; error: string };

/** The Content-Type each format is sent with (the import endpoint picks the parser by it). */
export const importContentType: Record<ImportFormat, string> = {
  json: "application/json",
  md: "text/markdown",
  csv: "text/csv",
};

export const UNSUPPORTED_IMPORT = "Choose a StoryWeave JSON (.json), Markdown outline (.md) or CSV (.csv) file";

/** The format of a chosen file, by its name. */
export function importFormatOf(filename: string): ImportFormat | null {
  const ext = /\.([a-z]+)$/i.exec(filename)?.[1]?.toLowerCase();
  if (ext === "json") return "json";
  if (ext === "md" || ext === "markdown" || ext === "txt") return "md";
  if (ext === "csv") return "csv";
  return null;
}

/** The format named by a request's Content-Type (parameters ignored). */
export function importFormatOfContentType(contentType: string | null | undefined): ImportFormat | null {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type === "application/json") return "json";
  if (type === "text/markdown" || type === "text/x-markdown" || type === "text/plain") return "md";
  if (type === "text/csv") return "csv";
  return null;
}

/** A title for a timeline made from a file with none inside (CSV): its name without the extension. */
export function titleFromFilename(filename: string) {
  const base = filename
    .replace(/\.[a-z]+$/i, "")
    .replace(/[_]+/g, " ")
    .trim();
  return (base || "Imported timeline").slice(0, limits.timelineTitle);
}

export function parseImport(format: ImportFormat, text: string, options: { title?: string } = {}): ParseResult {
  const clean = text.replace(/^\uFEFF/, "");
  if (format === "json") return parseTimelineJson(clean);
  if (format === "md") return parseMarkdownOutline(clean);
  return parseCsv(clean, options.title);
}

// ---------------------------------------------------------------------------------------------
// Shared rules

const fmt = (n: number) => n.toLocaleString("en-US");
const tooLong = (what: string, max: number) => `${what} must be at most ${fmt(max)} characters`;

class ImportError extends Error {}
const fail = (where: string, message: string): never => {
  throw new ImportError(`${where}: ${message}`);
};

function checkStoryDate(where: string, field: "start" | "end" | "date", value: string) {
  const parsed = parseStoryDate(value);
  if (!parsed.ok) fail(where, `${field} ${value} ${storyDateReason[parsed.reason]}`);
}

function checkEvent(where: string, event: TransferEvent) {
  if (!event.title) fail(where, "title is required");
  const maxTitle = EventTitleSchema.maxLength ?? Number.POSITIVE_INFINITY;
  const maxContent = EventContentSchema.maxLength ?? Number.POSITIVE_INFINITY;
  if (event.title.length > maxTitle) fail(where, tooLong("title", maxTitle));
  if (event.content.length > maxContent) fail(where, tooLong("content", maxContent));
  if (event.storyStart) checkStoryDate(where, "start", event.storyStart);
  if (event.storyEnd) checkStoryDate(where, "end", event.storyEnd);
  if (event.storyEnd && !event.storyStart) fail(where, "an end needs a start");
  if (event.storyStart && event.storyEnd && !isStoryRangeOrdered(event.storyStart, event.storyEnd)) {
    fail(where, "end must not be before start");
  }
  if (event.storyLabel && event.storyLabel.length > importLimits.storyLabel) fail(where, tooLong("story label", importLimits.storyLabel));
  if (event.entities.length > importLimits.linksPerEvent) fail(where, `at most ${importLimits.linksPerEvent} codex entries per event`);
  for (const name of event.entities) if (name.length > entityLimits.name) fail(where, tooLong("a codex name", entityLimits.name));
}

function checkTimeline(where: string, title: string, description: string | null) {
  if (!title) fail(where, "title is required");
  if (title.length > limits.timelineTitle) fail(where, tooLong("title", limits.timelineTitle));
  if (description && description.length > limits.timelineDescription) fail(where, tooLong("description", limits.timelineDescription));
}

function checkCounts(where: string, events: number, entities: number) {
  if (events > importLimits.events) fail(where, `at most ${fmt(importLimits.events)} events can be imported at once`);
  if (entities > importLimits.entities) fail(where, `at most ${fmt(importLimits.entities)} codex entries can be imported at once`);
}

function run(parse: () => TimelineDocument): ParseResult {
  try {
    return { ok: true, document: parse() };
  } catch (error) {
    if (error instanceof ImportError) return { ok: false, error: error.message };
    throw error;
  }
}

const newDocument = (title: string, description: string | null): TimelineDocument => ({
  format: TRANSFER_FORMAT,
  version: TRANSFER_VERSION,
  timeline: { title, description },
  entities: [],
  events: [],
});

/** Adds codex entries named by an outline or a sheet (first mention decides the kind); names as written. */
function codexOf(doc: TimelineDocument) {
  const byName = new Map(doc.entities.map((e) => [e.name.toLowerCase(), e]));
  return (name: string, kind: EntityKind) => {
    const found = byName.get(name.toLowerCase());
    if (found) return found.name;
    const entity: TransferEntity = { kind, name, aliases: [], description: "", color: defaultEntityColor[kind] };
    byName.set(name.toLowerCase(), entity);
    doc.entities.push(entity);
    return name;
  };
}

// ---------------------------------------------------------------------------------------------
// StoryWeave JSON

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function optionalText(where: string, field: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return fail(where, `${field} must be text`);
  return value.trim() || null;
}

/**
 * Where JSON.parse gave up, as a line number: engines do not all say, so a small scan finds the
 * first character that cannot continue a JSON text.
 */
export function jsonErrorLine(text: string) {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const expect = (ok: boolean) => {
    if (!ok) throw i;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === "{" || ch === "[") {
      const close = ch === "{" ? "}" : "]";
      i++;
      ws();
      if (text[i] === close) return void i++;
      for (;;) {
        if (close === "}") {
          ws();
          expect(text[i] === '"');
          value();
          ws();
          expect(text[i] === ":");
          i++;
        }
        value();
        ws();
        if (text[i] !== ",") break;
        i++;
      }
      expect(text[i] === close);
      i++;
      return;
    }
    if (ch === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        expect(text[i] >= " ");
        if (text[i] === "\\") i++;
      }
      expect(text[i] === '"');
      i++;
      return;
    }
    const literal = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(text.slice(i, i + 400));
    if (!literal) throw i;
    i += literal[0].length;
  };
  try {
    value();
    ws();
    expect(i >= text.length);
  } catch {
    // `i` is where it broke.
  }
  return text.slice(0, Math.min(i, text.length)).split("\n").length;
}

export function parseTimelineJson(text: string): ParseResult {
  return run(() => {
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch {
      return fail(`Line ${jsonErrorLine(text)}`, "this is not valid JSON");
    }
    if (!isObject(root) || root.format !== TRANSFER_FORMAT) {
      return fail("File", `this is not a StoryWeave timeline (format must be "${TRANSFER_FORMAT}")`);
    }
    if (root.version !== TRANSFER_VERSION) fail("File", `version ${String(root.version)} is not supported (expected ${TRANSFER_VERSION})`);
    if (!isObject(root.timeline)) return fail("Timeline", "title is required");
    const title = typeof root.timeline.title === "string" ? root.timeline.title.trim() : "";
    const description = optionalText("Timeline", "description", root.timeline.description);
    checkTimeline("Timeline", title, description);
    const rawEntities = root.entities ?? [];
    if (!Array.isArray(rawEntities)) return fail("File", "entities must be a list");
    if (!Array.isArray(root.events)) return fail("File", "events must be a list");
    checkCounts("File", root.events.length, rawEntities.length);

    const doc = newDocument(title, description);
    doc.entities = rawEntities.map((raw, i) => jsonEntity(`Codex entry ${i + 1}`, raw));
    const names = new Set(doc.entities.map((e) => e.name));
    doc.events = root.events.map((raw, i) => jsonEvent(`Event ${i + 1}`, raw, names));
    return doc;
  });
}

function jsonEntity(where: string, raw: unknown): TransferEntity {
  if (!isObject(raw)) return fail(where, "must be an object");
  const kind = raw.kind ?? "character";
  if (typeof kind !== "string" || !(entityKinds as readonly string[]).includes(kind)) fail(where, "kind must be character, place or thing");
  const name = typeof raw.name === "string" ? raw.name.trim() : "";
  if (!name) fail(where, "name is required");
  if (name.length > entityLimits.name) fail(where, tooLong("name", entityLimits.name));
  const aliases = raw.aliases ?? [];
  if (!Array.isArray(aliases) || aliases.some((a) => typeof a !== "string")) return fail(where, "aliases must be a list of names");
  const cleanAliases = [...new Set((aliases as string[]).map((a) => a.trim()).filter(Boolean))];
  if (cleanAliases.length > entityLimits.aliases) fail(where, `at most ${entityLimits.aliases} aliases`);
  if (cleanAliases.some((a) => a.length > entityLimits.alias)) fail(where, tooLong("each alias", entityLimits.alias));
  const description = optionalText(where, "description", raw.description) ?? "";
  if (description.length > entityLimits.description) fail(where, tooLong("description", entityLimits.description));
  const color = raw.color ?? defaultEntityColor[kind as EntityKind];
  if (typeof color !== "string" || !/^#[0-9a-f]{6}$/i.test(color)) fail(where, "color must be a hex color like #a1b2c3");
  return { kind: kind as EntityKind, name, aliases: cleanAliases, description, color: (color as string).toLowerCase() };
}

function jsonEvent(where: string, raw: unknown, names: Set<string>): TransferEvent {
  if (!isObject(raw)) return fail(where, "must be an object");
  const title = typeof raw.title === "string" ? raw.title.trim() : "";
  if (raw.content !== undefined && raw.content !== null && typeof raw.content !== "string") fail(where, "content must be text");
  const linked = raw.entities ?? [];
  if (!Array.isArray(linked) || linked.some((n) => typeof n !== "string")) return fail(where, "entities must be a list of codex names");
  const entities = [...new Set((linked as string[]).map((n) => n.trim()))];
  for (const name of entities) if (!names.has(name)) fail(where, `"${name}" is not in the codex`);
  const pov = optionalText(where, "pov", raw.pov);
  if (pov && !entities.includes(pov)) fail(where, "the point of view must be one of its codex entries");
  const event: TransferEvent = {
    title,
    content: typeof raw.content === "string" ? raw.content.trim() : "",
    storyStart: optionalText(where, "storyStart", raw.storyStart),
    storyEnd: optionalText(where, "storyEnd", raw.storyEnd),
    storyLabel: optionalText(where, "storyLabel", raw.storyLabel),
    entities,
    pov,
    // The files themselves are not in the document: their metadata travels, the bytes do not.
    attachments: [],
  };
  checkEvent(where, event);
  return event;
}

// ---------------------------------------------------------------------------------------------
// Markdown outline: `# Title`, the description, then one `## Event` section per event. The lines
// the export writes under each heading (story time, codex names) are read back; other text is content.

const STORY_TIME = "Story time";
const KIND_LABELS: Record<EntityKind, string> = { character: "Characters", place: "Places", thing: "Things" };
const POV_MARK = " (POV)";

/** `2024-03-15 – 2024-03-16 · Day 3, dusk`: dates, then the label. */
export function formatStoryTime(event: Pick<TransferEvent, "storyStart" | "storyEnd" | "storyLabel">) {
  const parts: string[] = [];
  if (event.storyStart) parts.push(event.storyEnd ? `${event.storyStart} – ${event.storyEnd}` : event.storyStart);
  if (event.storyLabel) parts.push(event.storyLabel);
  return parts.join(" · ");
}

/** The linked entries by kind, the POV marked: `[["Characters", "Mara (POV), Jon"], ["Places", "Harbor"]]`. */
export function codexLines(event: Pick<TransferEvent, "entities" | "pov">, codex: TransferEntity[]) {
  const kindOf = new Map(codex.map((e) => [e.name, e.kind]));
  return entityKinds
    .map((kind) => {
      const names = event.entities.filter((n) => (kindOf.get(n) ?? "character") === kind);
      return [KIND_LABELS[kind], names.map((n) => (n === event.pov ? `${n}${POV_MARK}` : n)).join(", ")] as const;
    })
    .filter(([, names]) => names.length > 0);
}

/**
 * Content lines that would read as a heading or as one of the lines above are escaped with a
 * backslash (as Markdown itself does), so the outline reads back the same.
 */
const SPECIAL = /^\\*(#|\*(Story time|Characters|Places|Things): )/;
const escapeLine = (line: string) => (SPECIAL.test(line) ? `\\${line}` : line);
const unescapeLine = (line: string) => (/^\\/.test(line) && SPECIAL.test(line) ? line.slice(1) : line);

export function renderMarkdown(doc: TimelineDocument) {
  const out = [`# ${doc.timeline.title}`, ""];
  if (doc.timeline.description) out.push(...doc.timeline.description.split("\n").map(escapeLine), "");
  for (const event of doc.events) {
    out.push(`## ${event.title}`, "");
    const time = formatStoryTime(event);
    const meta = [...(time ? [[STORY_TIME, time] as const] : []), ...codexLines(event, doc.entities)];
    if (meta.length > 0) out.push(...meta.map(([label, value]) => `*${label}: ${value}*`), "");
    if (event.content) out.push(...event.content.split("\n").map(escapeLine), "");
  }
  return `${out.join("\n").trimEnd()}\n`;
}

const H1 = /^#(?!#)\s*(.*)$/;
const H2 = /^##(?!#)\s*(.*)$/;
const META = /^\*(Story time|Characters|Places|Things): (.*)\*$/;

type NumberedLine = { line: number; text: string };

function trimBlankLines(lines: NumberedLine[]) {
  let start = 0;
  let end = lines.length;
  while (start < end && !lines[start].text.trim()) start++;
  while (end > start && !lines[end - 1].text.trim()) end--;
  return lines.slice(start, end);
}

const joinLines = (lines: NumberedLine[]) =>
  trimBlankLines(lines)
    .map((l) => unescapeLine(l.text))
    .join("\n");

function parseStoryTime(where: string, value: string) {
  const [head, ...rest] = value.split(" · ");
  const range = /^(\S+)(?:\s+–\s+(\S+))?$/.exec(head.trim());
  if (range && parseStoryDate(range[1]).ok && (!range[2] || parseStoryDate(range[2]).ok)) {
    return { storyStart: range[1], storyEnd: range[2] ?? null, storyLabel: rest.join(" · ").trim() || null };
  }
  // A date the reader cannot take is named, rather than silently becoming a label.
  if (range && /^-?\d+-/.test(range[1])) checkStoryDate(where, "start", range[1]);
  if (range?.[2] && /^-?\d+-/.test(range[2])) checkStoryDate(where, "end", range[2]);
  return { storyStart: null, storyEnd: null, storyLabel: value.trim() || null };
}

export function parseMarkdownOutline(text: string): ParseResult {
  return run(() => {
    const lines: NumberedLine[] = text.split(/\r\n|\r|\n/).map((t, i) => ({ line: i + 1, text: t }));
    const first = lines.find((l) => l.text.trim());
    const titleMatch = first ? H1.exec(first.text.trim()) : null;
    if (!first || !titleMatch) return fail(`Line ${first?.line ?? 1}`, "the outline must start with a '# Title' line");
    const title = titleMatch[1].trim();
    checkTimeline(`Line ${first.line}`, title, null);

    const sections: { line: number; heading: string; body: NumberedLine[] }[] = [];
    const descriptionLines: NumberedLine[] = [];
    for (const l of lines.slice(first.line)) {
      const h2 = H2.exec(l.text);
      if (h2) sections.push({ line: l.line, heading: h2[1].trim(), body: [] });
      else (sections.at(-1)?.body ?? descriptionLines).push(l);
    }
    const description = joinLines(descriptionLines) || null;
    if (description && description.length > limits.timelineDescription) {
      fail(`Line ${trimBlankLines(descriptionLines)[0].line}`, tooLong("description", limits.timelineDescription));
    }
    if (sections.length > importLimits.events) {
      fail(`Line ${sections[importLimits.events].line}`, `at most ${fmt(importLimits.events)} events can be imported at once`);
    }

    const doc = newDocument(title, description);
    const addEntity = codexOf(doc);
    for (const section of sections) {
      const where = `Line ${section.line}`;
      const event: TransferEvent = { ...emptyEvent(), title: section.heading };
      const body = trimBlankLines(section.body);
      let i = 0;
      for (; i < body.length; i++) {
        const meta = META.exec(body[i].text.trim());
        if (!meta) break;
        const at = `Line ${body[i].line}`;
        if (meta[1] === STORY_TIME) Object.assign(event, parseStoryTime(at, meta[2]));
        else {
          const kind = entityKinds.find((k) => KIND_LABELS[k] === meta[1]) ?? "character";
          for (const raw of meta[2].split(",")) addLink(at, event, addEntity, raw, kind);
        }
      }
      event.content = joinLines(body.slice(i));
      checkEvent(where, event);
      doc.events.push(event);
    }
    checkCounts("File", doc.events.length, doc.entities.length);
    return doc;
  });
}

const emptyEvent = (): TransferEvent => ({
  title: "",
  content: "",
  storyStart: null,
  storyEnd: null,
  storyLabel: null,
  entities: [],
  pov: null,
  attachments: [],
});

/** One name from a codex line or a characters cell; `Name (POV)` also makes it the point of view. */
function addLink(where: string, event: TransferEvent, addEntity: ReturnType<typeof codexOf>, raw: string, kind: EntityKind) {
  const isPov = /\(POV\)\s*$/i.test(raw);
  const name = raw.replace(/\(POV\)\s*$/i, "").trim();
  if (!name) return;
  if (name.length > entityLimits.name) fail(where, tooLong("a codex name", entityLimits.name));
  const stored = addEntity(name, kind);
  if (!event.entities.includes(stored)) event.entities.push(stored);
  if (isPov) event.pov = stored;
}

// ---------------------------------------------------------------------------------------------
// CSV: a header row naming the columns (title required; content, date, label and characters
// optional, in any order), then one event per row. RFC 4180 quoting: fields in double quotes may
// hold commas, line breaks and doubled quotes. Excel's semicolon-separated sheets work too.

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

// ---------------------------------------------------------------------------------------------
// Export helpers shared by the API and the print view

/** `The Long Night: Part 2` → `the-long-night-part-2`; ASCII only (accents dropped), never empty. */
export function exportSlug(title: string) {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80)
    .replace(/-+$/, "");
  return slug || "timeline";
}

export const exportFormats = {
  json: { ext: "json", contentType: "application/json" },
  md: { ext: "md", contentType: "text/markdown; charset=utf-8" },
  docx: { ext: "docx", contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
} as const;
export type ExportFormat = keyof typeof exportFormats;
