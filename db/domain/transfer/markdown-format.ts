// The Markdown outline: `# Title`, the description, one `## Event` section per event, then the codex
// (markdown-codex.ts). The lines the export writes under each heading (story time, codex names) are read
// back; other text is content.
import { type EntityKind, entityKinds, entityLimits, limits } from "../rules";
import { parseStoryDate } from "../story-date";
import {
  type ParseResult,
  type TimelineDocument,
  type TransferChapter,
  type TransferEntity,
  type TransferEvent,
  checkCounts,
  checkEvent,
  checkStoryDate,
  checkTimeline,
  codexOf,
  emptyEvent,
  fail,
  fmt,
  importLimits,
  newDocument,
  run,
  tooLong,
} from "./document";
import { chapterLimits, chapterMessages } from "../validation-chapters";
import { isChapterLine, isSceneBreak } from "./book-lines";
import { CODEX_HEADING, escapeName, parseCodex, renderCodex, resolveProgressions, splitNames } from "./markdown-codex";

const STORY_TIME = "Story time";
/** A label alone that would read back as a date ('1999') goes on a line of its own. */
const STORY_LABEL = "Story label";
/** A scene's synopsis and notes (DESIGN §12): quoted blocks under these labels, before the text. */
const SYNOPSIS = "Synopsis";
const NOTES = "Notes";
const DESK_LABEL = /^> \*\*(Synopsis|Notes)\*\*$/;
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
      const written = names.map((n) => `${escapeName(n)}${n === event.pov ? POV_MARK : ""}`);
      return [KIND_LABELS[kind], written.join(", ")] as const;
    })
    .filter(([, names]) => names.length > 0);
}

/**
 * Content lines that would read as a heading or as one of the lines above are escaped with a
 * backslash (as Markdown itself does), so the outline reads back the same.
 */
const SPECIAL = /^\\*(#|\*(Story time|Story label|Characters|Places|Things|Chapters|Target|By): |> \*\*(Synopsis|Notes)\*\*$)/;
/**
 * `===` or `---` under a line of prose is a setext heading's underline in CommonMark: the line above would read as a
 * heading at the outline's own levels. It gets a backslash (a line already escaped gets one more, so it reads back).
 */
const UNDERLINE = /^( {0,3})(\\*)(=+|-+)([ \t]*)$/;
/** A line a setext underline turns into a heading: not blank, a heading, a list item, a quote, code or a fence. */
const isProse = (line: string) => line.trim() !== "" && !/^( {4}|\t| {0,3}([-*+](\s|$)|\d{1,9}[.)](\s|$)|>|#|`{3}|~{3}))/.test(line);
const escapeLine = (line: string, above = "") => {
  const underline = UNDERLINE.exec(line);
  if (underline && (underline[2] || isProse(above))) return `${underline[1]}\\${line.slice(underline[1].length)}`;
  return SPECIAL.test(line) ? `\\${line}` : line;
};
const unescapeLine = (line: string) => {
  const underline = UNDERLINE.exec(line);
  if (underline?.[2]) return `${underline[1]}${line.slice(underline[1].length + 1)}`;
  return /^\\/.test(line) && SPECIAL.test(line) ? line.slice(1) : line;
};
/** Lines of text with the escapes above, each judged with the line over it. */
const escapeLines = (lines: string[]) => lines.map((line, i) => escapeLine(line, lines[i - 1]));

/**
 * A heading's text as written: trailing `#`s that CommonMark would strip as a closing sequence ('Act ##') get a
 * backslash (one more when escaped already), so every reader keeps them; `readHeading` takes it off.
 */
const headingText = (text: string) => text.replace(/(^|[ \t])(\\*#+[ \t]*)$/, "$1\\$2");
const readHeading = (text: string) => text.replace(/(^|[ \t])\\(\\*#+[ \t]*)$/, "$1$2");

/** The level events' headings have (`## Event`, `### Event` under `## Chapter`); a scene's own headings go below it. */
const EVENT_LEVEL = 2;
const CHAPTERED_EVENT_LEVEL = 3;
/** Under the title of an outline with chapters (so a scene's own `###` heading is never read as an event). */
const CHAPTERS_LINE = /^\*Chapters: \d+\*$/;
/** The byline the owner set, right under the title (absent: the owner's name). */
const BYLINE_LINE = /^\*By: (.*)\*$/;
/** Under a chapter's heading: its word target, `*Target: 5,000 words*`. */
const TARGET_LINE = /^\*Target: ([\d,]+) words?\*$/;
const targetLine = (words: number) => `*Target: ${fmt(words)} word${words === 1 ? "" : "s"}*`;
/** An ATX heading as the editor writes it: `## Text` (CommonMark allows up to three spaces before it). */
const ATX = /^( {0,3})(#{1,6})(?=[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Calls `each` for every line with whether it is inside fenced code (where nothing is a heading or escaped). */
function walkFences<T>(lines: readonly T[], text: (line: T) => string, each: (line: T, inCode: boolean) => void) {
  let fence: string | null = null;
  for (const line of lines) {
    const open = FENCE.exec(text(line));
    if (fence) {
      each(line, true);
      if (open && open[1][0] === fence[0] && open[1].length >= fence.length && !text(line).slice(open[0].length).trim()) fence = null;
    } else {
      each(line, false);
      if (open) fence = open[1];
    }
  }
}

/** The draft's lines before its codex section, each with its `##` or `###` heading when it is one (never in code). */
function walkDraft(
  lines: NumberedLine[],
  codexAt: number,
  each: (line: NumberedLine, inCode: boolean, h2: RegExpExecArray | null, h3: RegExpExecArray | null) => void,
) {
  walkFences(
    codexAt < 0 ? lines : lines.slice(0, codexAt),
    (l) => l.text,
    (l, inCode) => {
      const h3 = inCode ? null : H3.exec(l.text);
      const h2 = h3 || inCode ? null : H2.exec(l.text);
      each(l, inCode, h2, h3);
    },
  );
}

/**
 * A scene's text under its event's heading: its own headings go `shift` levels down (`# Harbour` in a scene is
 * `### Harbour` under `## Event`, as pandoc's --shift-heading-level-by does, so CommonMark readers show a heading;
 * a level past 6 stays 6), other lines that would read as the outline's are escaped, fenced code is left as it is.
 */
export function contentLines(content: string, shift = EVENT_LEVEL) {
  const out: string[] = [];
  let above = "";
  walkFences(
    content.split("\n"),
    (l) => l,
    (line, inCode) => {
      const heading = inCode ? null : ATX.exec(line);
      if (heading) out.push(`${heading[1]}${"#".repeat(Math.min(6, heading[2].length + shift))}${line.slice(heading[0].length)}`);
      else out.push(inCode ? line : escapeLine(line, above));
      above = inCode ? "```" : line;
    },
  );
  return out;
}

/** `contentLines` read back: headings below the event's level come up by `shift`; escapes are taken off. */
function readContent(lines: NumberedLine[], shift = EVENT_LEVEL) {
  const out: string[] = [];
  walkFences(
    trimBlankLines(lines),
    (l) => l.text,
    (l, inCode) => {
      const heading = inCode ? null : ATX.exec(l.text);
      if (heading && heading[2].length > shift)
        out.push(`${heading[1]}${"#".repeat(heading[2].length - shift)}${l.text.slice(heading[0].length)}`);
      else out.push(inCode ? l.text : unescapeLine(l.text));
    },
  );
  return out.join("\n");
}

export function renderMarkdown(doc: TimelineDocument) {
  const out = [`# ${headingText(doc.timeline.title)}`, ""];
  if (doc.timeline.byline) out.push(`*By: ${doc.timeline.byline.replace(/\s+/g, " ")}*`, "");
  if (doc.chapters?.length) out.push(`*Chapters: ${doc.chapters.length}*`, "");
  if (doc.timeline.description) out.push(...escapeLines(doc.timeline.description.split("\n")), "");
  if (doc.chapters?.length) renderChapteredEvents(doc, out);
  else for (const event of doc.events) renderEvent(doc, event, "##", out);
  out.push(...renderCodex(doc.entities, doc.events, doc.relationships));
  return `${out.join("\n").trimEnd()}\n`;
}

function renderEvent(doc: TimelineDocument, event: TransferEvent, level: "##" | "###", out: string[]) {
  out.push(`${level} ${headingText(event.title)}`, "");
  const meta = [...storyTimeLine(event), ...codexLines(event, doc.entities)];
  if (meta.length > 0) out.push(...meta.map(([label, value]) => `*${label}: ${value}*`), "");
  for (const [label, text] of [
    [SYNOPSIS, event.synopsis],
    [NOTES, event.notes],
  ] as const) {
    if (text) out.push(...deskLines(label, text), "");
  }
  if (event.content) out.push(...contentLines(event.content, level.length), "");
}

/** A scene's synopsis or notes: a quote under its bold label, every line quoted (so nothing in it is a heading). */
const deskLines = (label: string, text: string) => [`> **${label}**`, ...text.split("\n").map((line) => (line ? `> ${line}` : ">"))];

/** The quoted blocks `deskLines` wrote, read back from the start of a scene's body; returns where the text starts. */
function readDesk(body: NumberedLine[], from: number, event: TransferEvent) {
  let i = from;
  for (;;) {
    while (i < body.length && !body[i].text.trim()) i++;
    const label = DESK_LABEL.exec(body[i]?.text.trim() ?? "");
    if (!label) return i;
    const field = label[1] === SYNOPSIS ? "synopsis" : "notes";
    const lines: string[] = [];
    for (i++; i < body.length && /^>/.test(body[i].text); i++) lines.push(body[i].text.replace(/^> ?/, ""));
    const text = lines.join("\n").trimEnd();
    if (text) event[field] = text;
  }
}

/**
 * A timeline with chapters: `## Chapter` over its events' `### Event` sections. Events in no chapter before the
 * first chapter come first; events in no chapter after a chapter stand under a bare `##` (no chapter from here).
 */
function renderChapteredEvents(doc: TimelineDocument, out: string[]) {
  const chapters = doc.chapters ?? [];
  let current: number | null = null;
  for (const event of doc.events) {
    const chapter = event.chapter ?? null;
    if (chapter !== current) {
      if (chapter === null) out.push(NO_CHAPTER, "");
      else renderChapterHeading(chapters[chapter], out);
      current = chapter;
    }
    renderEvent(doc, event, "###", out);
  }
  // Chapters with no events yet still travel.
  const used = new Set(doc.events.map((e) => e.chapter ?? null));
  for (const [i, chapter] of chapters.entries()) if (!used.has(i)) renderChapterHeading(chapter, out);
}

function renderChapterHeading(chapter: TransferChapter | undefined, out: string[]) {
  out.push(`## ${headingText(chapter?.title ?? "")}`, "");
  if (chapter?.targetWords) out.push(targetLine(chapter.targetWords), "");
}

/** A chapter's `*Target: …*` line read back: a whole number of words in the chapters' range. */
function readTarget(where: string, digits: string) {
  const words = Number(digits.replaceAll(",", ""));
  if (!Number.isInteger(words) || words < 1 || words > chapterLimits.targetWords) fail(where, chapterMessages.targetWords);
  return words;
}

/** The story time line, or a label-only line when the label alone would not read back as itself. */
function storyTimeLine(event: Pick<TransferEvent, "storyStart" | "storyEnd" | "storyLabel">): [string, string][] {
  const time = formatStoryTime(event);
  if (!time) return [];
  if (event.storyStart || !event.storyLabel) return [[STORY_TIME, time]];
  let readsBack = false;
  try {
    const back = parseStoryTime("", time);
    readsBack = !back.storyStart && back.storyLabel === event.storyLabel;
  } catch {
    // A label shaped like an impossible date ('2024-02-30') would be refused: it is written as a label.
  }
  return [[readsBack ? STORY_TIME : STORY_LABEL, time]];
}

const H1 = /^#(?!#)\s*(.*)$/;
const H2 = /^##(?!#)\s*(.*)$/;
const H3 = /^###(?!#)\s*(.*)$/;
/** In an outline with chapters, a bare `##`: the events after it are in no chapter. */
const NO_CHAPTER = "##";
const META = /^\*(Story time|Story label|Characters|Places|Things): (.*)\*$/;

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

type Section = { line: number; heading: string; body: NumberedLine[]; chapter: number | null };

/** `## Event` sections (an outline without chapters). */
function plainSections(lines: NumberedLine[]) {
  const sections: Section[] = [];
  const descriptionLines: NumberedLine[] = [];
  walkFences(
    lines,
    (l) => l.text,
    (l, inCode) => {
      const h2 = inCode ? null : H2.exec(l.text);
      if (h2) sections.push({ line: l.line, heading: readHeading(h2[1].trim()), body: [], chapter: null });
      else (sections.at(-1)?.body ?? descriptionLines).push(l);
    },
  );
  return { sections, descriptionLines, chapters: [] as TransferChapter[] };
}

/**
 * `## Chapter` headings over `### Event` sections (an outline with chapters); a bare `##` ends the chapter. The
 * codex keeps its last `## Codex` section (`codexAt`, -1: none), whose entries are `###` too.
 */
/**
 * `splitBreaks` (a draft whose chapters hold prose, DraftShape "breaks"): text right under a chapter's heading opens
 * a scene of its own, and a scene-break line ('* * *', '***', '#', '~', '---', an ornament) ends the scene it is in;
 * those scenes are titled as a Word file's are, 'Chapter 3 · Scene 2'.
 */
function chapteredSections(lines: NumberedLine[], codexAt: number, splitBreaks = false) {
  const sections: Section[] = [];
  const descriptionLines: NumberedLine[] = [];
  const chapters: TransferChapter[] = [];
  let chapter: number | null = null;
  /** Right under a chapter's heading, before any other text: where its target line may stand. */
  let targetMayFollow = false;
  /** With `splitBreaks`: the scene text goes to (null: the next text opens one), and the chapter's scene count. */
  let current: Section | null = null;
  let scenesInChapter = 0;
  walkDraft(lines, codexAt, (l, inCode, h2, h3) => {
    const target = targetMayFollow && !inCode ? TARGET_LINE.exec(l.text.trim()) : null;
    if (l.text.trim() && !h2) targetMayFollow = false;
    if (h3) {
      current = { line: l.line, heading: readHeading(h3[1].trim()), body: [], chapter };
      sections.push(current);
      scenesInChapter += 1;
    } else if (h2) {
      const heading = readHeading(h2[1].trim());
      current = null;
      scenesInChapter = 0;
      if (!heading) chapter = null;
      else {
        if (heading.length > chapterLimits.title) fail(`Line ${l.line}`, tooLong("a chapter title", chapterLimits.title));
        chapters.push({ title: heading, targetWords: null });
        chapter = chapters.length - 1;
        targetMayFollow = true;
      }
    } else if (target && chapter !== null) chapters[chapter].targetWords = readTarget(`Line ${l.line}`, target[1]);
    else if (splitBreaks && chapter !== null && !inCode && isSceneBreak(l.text) && !FENCE.test(l.text)) current = null;
    else if (splitBreaks && chapter !== null && current === null) {
      if (!l.text.trim()) return;
      scenesInChapter += 1;
      const heading = `${chapters[chapter].title} · Scene ${scenesInChapter}`.slice(0, limits.eventTitle).trim();
      current = { line: l.line, heading, body: [l], chapter };
      sections.push(current);
    } else (sections.at(-1)?.body ?? descriptionLines).push(l);
  });
  // The codex is read as the last section, as in an outline without chapters.
  if (codexAt >= 0) sections.push({ line: lines[codexAt].line, heading: CODEX_HEADING, body: lines.slice(codexAt + 1), chapter: null });
  return { sections, descriptionLines, chapters };
}

/**
 * A draft as writers write it, with no `*Chapters: N*` line: `##` chapters each holding `###` scenes, nothing but
 * blank lines between a chapter's heading and its first scene. (An outline without chapters has its scene's details
 * or text right under each `## Event`; one whose every event is empty or opens with a heading of its own is the one
 * shape both could be, and is read as chapters only when every `##` holds a `###`.)
 */
function isWritersDraft(lines: NumberedLine[], codexAt: number) {
  let chapters = 0;
  /** Scenes in the current chapter; -1 before the first chapter. */
  let scenes = -1;
  let draft = true;
  walkDraft(lines, codexAt, (l, _inCode, h2, h3) => {
    if (!draft) return;
    if (h2) {
      if (scenes === 0 || !readHeading(h2[1].trim())) draft = false;
      chapters += 1;
      scenes = 0;
    } else if (h3) {
      if (scenes < 0) draft = false;
      else scenes += 1;
    } else if (scenes === 0 && l.text.trim()) draft = false;
  });
  return draft && chapters > 0 && scenes > 0;
}

/**
 * A draft whose chapters are prose: every `##` is a chapter line ('Chapter 1', 'Chapter Two: The Road', 'Prologue'),
 * at least one of them has text right under it, and no `###` stands before the first chapter. An outline whose every
 * event is called 'Chapter N' reads the same way, each event a chapter of one scene.
 */
function isDraftOfChapters(lines: NumberedLine[], codexAt: number) {
  let chapters = 0;
  let prose = false;
  let underHeading = false;
  let draft = true;
  walkDraft(lines, codexAt, (l, _inCode, h2, h3) => {
    if (!draft) return;
    if (h2) {
      if (!isChapterLine(readHeading(h2[1].trim()))) draft = false;
      chapters += 1;
      underHeading = true;
    } else if (h3) {
      if (chapters === 0) draft = false;
      underHeading = false;
    } else if (l.text.trim()) {
      if (underHeading && chapters > 0 && (!isSceneBreak(l.text) || FENCE.test(l.text))) prose = true;
      underHeading = false;
    }
  });
  return draft && chapters > 0 && prose;
}

export function parseMarkdownOutline(text: string): ParseResult {
  return run(() => {
    const lines: NumberedLine[] = text.split(/\r\n|\r|\n/).map((t, i) => ({ line: i + 1, text: t }));
    const first = lines.find((l) => l.text.trim());
    const titleMatch = first ? H1.exec(first.text.trim()) : null;
    if (!first || !titleMatch) return fail(`Line ${first?.line ?? 1}`, "the outline must start with a '# Title' line");
    const title = readHeading(titleMatch[1].trim());
    checkTimeline(`Line ${first.line}`, title, null);

    // Chapters when the line under the title says so (a scene's own headings are `###` in an outline without them).
    let body = lines.slice(first.line);
    const bylineAt = body.findIndex((l) => l.text.trim());
    const byline = bylineAt >= 0 ? BYLINE_LINE.exec(body[bylineAt].text.trim()) : null;
    if (byline) {
      if (byline[1].trim().length > limits.byline) fail(`Line ${body[bylineAt].line}`, tooLong("byline", limits.byline));
      body = body.slice(bylineAt + 1);
    }
    const marker = body.findIndex((l) => l.text.trim());
    const chaptered = marker >= 0 && CHAPTERS_LINE.test(body[marker].text.trim());
    if (chaptered) body = body.slice(marker + 1);
    const codexAt = body.findLastIndex((l) => H2.exec(l.text)?.[1].trim() === CODEX_HEADING);
    // Or a draft with `##` chapters and `###` scenes, as writers write one, or `## Chapter 1` chapters of prose
    // cut into scenes by scene breaks.
    const draftWithBreaks = !chaptered && !isWritersDraft(body, codexAt) && isDraftOfChapters(body, codexAt);
    const withChapters = chaptered || draftWithBreaks || isWritersDraft(body, codexAt);
    const { sections, descriptionLines, chapters } = withChapters ? chapteredSections(body, codexAt, draftWithBreaks) : plainSections(body);
    const description = joinLines(descriptionLines) || null;
    if (description && description.length > limits.timelineDescription) {
      fail(`Line ${trimBlankLines(descriptionLines)[0].line}`, tooLong("description", limits.timelineDescription));
    }
    if (sections.length > importLimits.events) {
      fail(`Line ${sections[importLimits.events].line}`, `at most ${fmt(importLimits.events)} events can be imported at once`);
    }

    // The codex section, when the last section is one, gives every entry (linked or not) in its order.
    const codex = sections.at(-1)?.heading === CODEX_HEADING ? parseCodex(sections.at(-1)?.body ?? []) : null;
    if (codex) sections.pop();

    const doc = newDocument(title, description);
    if (byline?.[1].trim()) doc.timeline.byline = byline[1].trim();
    if (chapters.length > 0) doc.chapters = chapters;
    doc.entities = codex ?? [];
    const addEntity = codexOf(doc);
    for (const section of sections) {
      const where = `Line ${section.line}`;
      const event: TransferEvent = { ...emptyEvent(), title: section.heading };
      if (withChapters) event.chapter = section.chapter;
      const body = trimBlankLines(section.body);
      let i = 0;
      for (; i < body.length; i++) {
        const meta = META.exec(body[i].text.trim());
        if (!meta) break;
        const at = `Line ${body[i].line}`;
        if (meta[1] === STORY_TIME) Object.assign(event, parseStoryTime(at, meta[2]));
        else if (meta[1] === STORY_LABEL) Object.assign(event, { storyStart: null, storyEnd: null, storyLabel: meta[2].trim() || null });
        else {
          const kind = entityKinds.find((k) => KIND_LABELS[k] === meta[1]) ?? "character";
          for (const { name, pov } of splitNames(meta[2])) {
            if (name.length > entityLimits.name) fail(at, tooLong("a codex name", entityLimits.name));
            const stored = addEntity(name, kind);
            if (!event.entities.includes(stored)) event.entities.push(stored);
            if (pov) event.pov = stored;
          }
        }
      }
      i = readDesk(body, i, event);
      event.content = readContent(body.slice(i), withChapters ? CHAPTERED_EVENT_LEVEL : EVENT_LEVEL);
      if (codex) {
        const order = new Map(doc.entities.map((e, index) => [e.name, index]));
        event.entities.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
      }
      checkEvent(where, event);
      doc.events.push(event);
    }
    checkCounts("File", doc.events.length, doc.entities.length);
    resolveProgressions(doc);
    return doc;
  });
}
