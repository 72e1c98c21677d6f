// The Markdown outline's codex: a last `## Codex` section with one `### Name` per entry and its fields as
// a list, and the escaping of names inside an event's `*Characters: …*` line. Event content never holds a
// `###` line (the outline escapes every content line that starts with '#'), so a `## Codex` section whose
// body is such entries cannot be an event of that title.
import { fail, type TimelineDocument, type TransferEntity } from "./document";
import { jsonEntity } from "./json-format";
import { jsonProgressions } from "./progressions-format";
import { type PendingRelationship, readRelationshipLine, relationshipLines, resolveRelationshipLines } from "./relationships-format";

export const CODEX_HEADING = "Codex";
const INDENT = "  ";

type NumberedLine = { line: number; text: string };

/** Commas, backslashes and Markdown's emphasis marks inside a name are backslash-escaped, as CommonMark reads them. */
export const escapeName = (name: string) => name.replace(/[\\,*_`[\]<(]/g, (ch) => `\\${ch}`);

const unescapeInline = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, "$1");

/** A heading or list item's text: inline marks escaped, and a leading block mark ('- ', '1. ', '> ') too. */
const escapeItem = (text: string) =>
  escapeName(text)
    .replace(/^([-+>#=|])/, "\\$1")
    .replace(/^(\d+)([.)])/, "$1\\$2");

/** Description lines that start with '#' are escaped as in an event's text, so no heading appears inside an entry. */
const escapeDescriptionLine = (line: string) => (/^\\*#/.test(line) ? `\\${line}` : line);
const unescapeDescriptionLine = (line: string) => (/^\\+#/.test(line) ? line.slice(1) : line);

/**
 * `Smith\, John \(POV), Jon (POV)` → `[{name: "Smith, John", pov: false}, {name: "Jon", pov: true}]`: split
 * on unescaped commas, a trailing unescaped `(POV)` marks the point of view, escapes are undone.
 */
export function splitNames(value: string) {
  const parts: { name: string; pov: boolean }[] = [];
  let raw = "";
  const flush = () => {
    const pov = /(?<!\\)\(POV\)\s*$/i.test(raw);
    const name = unescapeInline((pov ? raw.replace(/\(POV\)\s*$/i, "") : raw).trim());
    if (name) parts.push({ name, pov });
    raw = "";
  };
  for (let i = 0; i < value.length; i++) {
    if (value[i] === "\\" && i + 1 < value.length) raw += value[i] + value[++i];
    else if (value[i] === ",") flush();
    else raw += value[i];
  }
  flush();
  return parts;
}

const indent = (text: string) => text.split("\n").map((l) => (l ? `${INDENT}${escapeDescriptionLine(l)}` : ""));

export function renderCodex(
  entities: TransferEntity[],
  events: { title: string }[] = [],
  relationships: TimelineDocument["relationships"] = [],
) {
  if (entities.length === 0) return [];
  const out = [`## ${CODEX_HEADING}`, ""];
  for (const e of entities) {
    out.push(`### ${escapeItem(e.name)}`, "", `- Kind: ${e.kind}`, `- Color: ${e.color}`);
    if (e.aliases.length > 0) out.push("- Aliases:", ...e.aliases.map((a) => `${INDENT}- ${escapeItem(a)}`));
    if (e.description) out.push("- Description:", ...indent(e.description));
    // Progressions (DESIGN.md §12), one line each: 'From "{scene}" on: text'.
    for (const p of e.progressions ?? []) {
      const scene = events[p.event];
      if (scene) out.push(`- From "${scene.title}" on: ${p.text.replace(/\s*\n\s*/g, " ")}`);
    }
    // Relationships (DESIGN.md §12) under the entry they start from: '- Relationship: "sister of" → "Ilan"'.
    out.push(...relationshipLines(e.name, { relationships, events }));
    out.push("");
  }
  return out;
}

const FIELD = /^- (Kind|Color|Aliases|Description):(?: (.*))?$/;
const FROM = /^- From "(.*?)" on: (.*)$/;

type PendingProgression = { line: number; title: string; text: string };
/** The `Relationship:` lines of each parsed codex (by its first entry), read back once the scenes are known. */
const pendingRelationships = new WeakMap<TransferEntity, (PendingRelationship & { line: number })[]>();
/** The `From "…" on:` lines of each parsed entry, read back once the outline's scenes are known. */
const pendingProgressions = new WeakMap<TransferEntity, PendingProgression[]>();

/** Each entry's progressions from its `From "{scene}" on: text` lines: the scene is the first of that title. */
export function resolveProgressions(doc: TimelineDocument) {
  const sceneIndex = new Map<string, number>();
  doc.events.forEach((e, i) => {
    if (!sceneIndex.has(e.title)) sceneIndex.set(e.title, i);
  });
  for (const entity of doc.entities) {
    const pending = pendingProgressions.get(entity);
    if (!pending?.length) continue;
    const raw = pending.map(({ line, title, text }) => {
      const event = sceneIndex.get(title);
      if (event === undefined) fail(`Line ${line}`, `"${title}" is not a scene of this outline`);
      return { event, text };
    });
    entity.progressions = jsonProgressions(`Codex entry "${entity.name}"`, raw, doc.events.length);
  }
  const first = doc.entities[0];
  if (first) resolveRelationshipLines(doc, pendingRelationships.get(first) ?? []);
}

/**
 * The entries of a codex section, or null when the body is not one (a hand-written event titled 'Codex'):
 * the first text line is a `### ` heading and every line belongs to an entry's fields.
 */
export function parseCodex(body: NumberedLine[]): TransferEntity[] | null {
  const entries: { line: number; raw: Record<string, unknown>; from: PendingProgression[] }[] = [];
  const relationships: (PendingRelationship & { line: number })[] = [];
  let field: "aliases" | "description" | null = null;
  let description: string[] = [];
  const endDescription = () => {
    const entry = entries.at(-1);
    if (entry && field === "description") {
      while (description.length > 0 && !description.at(-1)) description.pop();
      entry.raw.description = description.join("\n");
    }
    description = [];
  };
  for (const { line, text } of body) {
    const entry = entries.at(-1);
    if (field === "description" && (!text || text.startsWith(INDENT))) {
      description.push(unescapeDescriptionLine(text.slice(INDENT.length)));
      continue;
    }
    if (field === "aliases" && text.startsWith(`${INDENT}- `)) {
      (entry?.raw.aliases as string[]).push(unescapeInline(text.slice(INDENT.length + 2)));
      continue;
    }
    endDescription();
    field = null;
    if (!text.trim()) continue;
    const heading = /^### (.*)$/.exec(text);
    if (heading) {
      entries.push({ line, raw: { name: unescapeInline(heading[1].trim()), aliases: [] }, from: [] });
      continue;
    }
    const related = entry ? readRelationshipLine(text, entry.raw.name as string) : null;
    if (related) {
      relationships.push({ ...related, line });
      continue;
    }
    const from = FROM.exec(text);
    if (entry && from) {
      entry.from.push({ line, title: from[1], text: from[2] });
      continue;
    }
    const match = FIELD.exec(text);
    if (!entry || !match) return null;
    const value = match[2]?.trim() ?? "";
    if (match[1] === "Kind") entry.raw.kind = value.toLowerCase();
    else if (match[1] === "Color") entry.raw.color = value;
    else if (match[1] === "Aliases") field = "aliases";
    else {
      field = "description";
      if (value) description.push(value);
    }
  }
  endDescription();
  if (entries.length === 0) return null;
  const parsed = entries.map(({ line, raw, from }) => {
    const entity = jsonEntity(`Line ${line}`, raw);
    if (from.length > 0) pendingProgressions.set(entity, from);
    return entity;
  });
  if (relationships.length > 0) pendingRelationships.set(parsed[0], relationships);
  return parsed;
}
