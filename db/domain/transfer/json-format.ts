// The StoryWeave JSON document.
import { type Calendar, GREGORIAN, validateCalendar } from "../calendar";
import { type EntityKind, defaultEntityColor, entityKinds, entityLimits, limits } from "../rules";
import { chapterLimits } from "../validation-chapters";
import { plotlineLimits } from "../plotline-rules";
import { isLifespanOrdered, maxDependencies } from "../lifespans";
import {
  TRANSFER_FORMAT,
  TRANSFER_VERSION,
  type ParseResult,
  type TransferChapter,
  type TransferPlotline,
  type TransferEntity,
  type TransferEvent,
  checkChapterOrder,
  checkCounts,
  checkEvent,
  checkStoryDate,
  checkTimeline,
  fail,
  importLimits,
  newDocument,
  run,
  tooLong,
} from "./document";
import { attachProgressions } from "./progressions-format";
import { jsonRelationships } from "./relationships-format";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function optionalText(where: string, field: string, value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== "string") return fail(where, `${field} must be text`);
  return value.trim() || null;
}

/** A scene's synopsis and notes, when the file has them (Markdown: kept as written, trailing space off). */
function deskText(where: string, raw: Record<string, unknown>) {
  const out: { synopsis?: string; notes?: string } = {};
  for (const field of ["synopsis", "notes"] as const) {
    const value = raw[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== "string") fail(where, `${field} must be text`);
    const text = (value as string).trimEnd();
    if (text) out[field] = text;
  }
  return out;
}

/** What a date was written as ('Spring 1203 AR'), when the file keeps it. */
function typedText(where: string, raw: Record<string, unknown>) {
  const start = optionalText(where, "storyStartText", raw.storyStartText);
  const end = optionalText(where, "storyEndText", raw.storyEndText);
  return { ...(start && { storyStartText: start }), ...(end && { storyEndText: end }) };
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
    const target = root.timeline.targetWords ?? null;
    if (target !== null) {
      if (!(Number.isInteger(target) && (target as number) >= 1 && (target as number) <= chapterLimits.targetWords))
        fail("Timeline", "target must be a whole number of words between 1 and 10,000,000");
      doc.timeline.targetWords = target as number;
    }
    const byline = root.timeline.byline ?? null;
    if (byline !== null) {
      if (typeof byline !== "string") fail("Timeline", "byline must be text");
      if ((byline as string).trim().length > limits.byline) fail("Timeline", tooLong("byline", limits.byline));
      if ((byline as string).trim()) doc.timeline.byline = (byline as string).trim();
    }
    // The calendar first: born and died, like the events' dates, are read in it.
    let calendar: Calendar = GREGORIAN;
    if (root.calendar != null) {
      const checked = validateCalendar(root.calendar);
      if (!checked.ok) return fail("Calendar", checked.error);
      calendar = checked.calendar;
      if (calendar.kind !== "gregorian") doc.calendar = calendar;
    }
    doc.entities = rawEntities.map((raw, i) => jsonEntity(`Codex entry ${i + 1}`, raw, calendar));
    const names = new Set(doc.entities.map((e) => e.name));
    const rawChapters = root.chapters ?? [];
    if (!Array.isArray(rawChapters)) return fail("File", "chapters must be a list");
    if (rawChapters.length > importLimits.chapters) fail("File", `at most ${importLimits.chapters} chapters can be imported at once`);
    const chapters = rawChapters.map((raw, i) => jsonChapter(`Chapter ${i + 1}`, raw));
    const rawPlotlines = root.plotlines ?? [];
    if (!Array.isArray(rawPlotlines)) return fail("File", "plotlines must be a list");
    if (rawPlotlines.length > importLimits.plotlines) fail("File", `at most ${importLimits.plotlines} plotlines can be imported at once`);
    const plotlines = rawPlotlines.map((raw, i) => jsonPlotline(`Plotline ${i + 1}`, raw));
    const eventCount = root.events.length;
    doc.events = root.events.map((raw, i) =>
      jsonEvent(`Event ${i + 1}`, raw, names, chapters.length, plotlines.length, calendar, eventCount, i),
    );
    checkDependencyLoops(doc.events);
    attachProgressions(doc, rawEntities);
    const relationships = jsonRelationships(root.relationships, doc.events.length);
    if (relationships.length > 0) doc.relationships = relationships;
    if (chapters.length > 0) {
      doc.chapters = chapters;
      checkChapterOrder("File", doc);
    }
    if (plotlines.length > 0) doc.plotlines = plotlines;
    return doc;
  });
}

export function jsonEntity(where: string, raw: unknown, cal: Calendar = GREGORIAN): TransferEntity {
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
  const born = optionalText(where, "born", raw.born);
  const died = optionalText(where, "died", raw.died);
  if (born) checkStoryDate(where, "born", born, cal);
  if (died) checkStoryDate(where, "died", died, cal);
  if (!isLifespanOrdered(born, died)) fail(where, "died must come after born");
  return {
    kind: kind as EntityKind,
    name,
    aliases: cleanAliases,
    description,
    color: (color as string).toLowerCase(),
    ...(born && { born }),
    ...(died && { died }),
  };
}

function jsonChapter(where: string, raw: unknown): TransferChapter {
  if (!isObject(raw)) return fail(where, "must be an object");
  const title = typeof raw.title === "string" ? raw.title.trim() : "";
  if (!title) fail(where, "title is required");
  if (title.length > chapterLimits.title) fail(where, tooLong("title", chapterLimits.title));
  const target = raw.targetWords ?? null;
  if (target !== null && !(Number.isInteger(target) && (target as number) >= 1 && (target as number) <= chapterLimits.targetWords)) {
    fail(where, "target must be a whole number of words between 1 and 10,000,000");
  }
  return { title, targetWords: target as number | null };
}

function jsonPlotline(where: string, raw: unknown): TransferPlotline {
  if (!isObject(raw)) return fail(where, "must be an object");
  const title = typeof raw.title === "string" ? raw.title.trim() : "";
  if (!title) fail(where, "title is required");
  if (title.length > plotlineLimits.title) fail(where, tooLong("title", plotlineLimits.title));
  const color = raw.color;
  if (typeof color !== "string" || !/^#[0-9a-f]{6}$/i.test(color)) fail(where, "color must be a hex color like #a1b2c3");
  return { title, color: (color as string).toLowerCase() };
}

function jsonEvent(
  where: string,
  raw: unknown,
  names: Set<string>,
  chapterCount = 0,
  plotlineCount = 0,
  cal: Calendar = GREGORIAN,
  eventCount = 0,
  self = -1,
): TransferEvent {
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
    ...deskText(where, raw),
    ...typedText(where, raw),
    entities,
    pov,
    // The files themselves are not in the document: their metadata travels, the bytes do not.
    attachments: [],
  };
  const chapter = raw.chapter ?? null;
  if (chapter !== null) {
    if (!Number.isInteger(chapter) || (chapter as number) < 0 || (chapter as number) >= chapterCount) {
      fail(where, "chapter must be the number of one of the file's chapters (counting from 0)");
    }
    event.chapter = chapter as number;
  }
  const inPlotlines = raw.plotlines ?? [];
  const isIndex = (p: unknown) => Number.isInteger(p) && (p as number) >= 0 && (p as number) < plotlineCount;
  if (!Array.isArray(inPlotlines) || !inPlotlines.every(isIndex)) {
    fail(where, "plotlines must be a list of the numbers of the file's plotlines (counting from 0)");
  }
  if ((inPlotlines as number[]).length > 0) event.plotlines = [...new Set(inPlotlines as number[])];
  const after = raw.after ?? [];
  const isEvent = (p: unknown) => Number.isInteger(p) && (p as number) >= 0 && (p as number) < eventCount && p !== self;
  if (!Array.isArray(after) || !after.every(isEvent)) {
    fail(where, "after must be a list of the numbers of the file's other events (counting from 0)");
  }
  const afterList = [...new Set(after as number[])];
  if (afterList.length > maxDependencies) fail(where, `at most ${maxDependencies} dependencies`);
  if (afterList.length > 0) event.after = afterList;
  checkEvent(where, event, cal);
  return event;
}

/** Refuses dependencies that loop (a scene after itself through others): walks the graph once, coloring scenes. */
function checkDependencyLoops(events: TransferEvent[]) {
  const state = new Uint8Array(events.length); // 0 unseen, 1 on the path, 2 done
  for (let root = 0; root < events.length; root++) {
    if (state[root]) continue;
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    while (stack.length) {
      const top = stack[stack.length - 1];
      const next = events[top[0]].after?.[top[1]++];
      if (next === undefined) {
        state[top[0]] = 2;
        stack.pop();
      } else if (state[next] === 1) {
        fail(`Event ${next + 1}`, "its dependencies make a loop");
      } else if (state[next] === 0) {
        state[next] = 1;
        stack.push([next, 0]);
      }
    }
  }
}
