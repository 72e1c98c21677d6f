// Codex relationships in the StoryWeave JSON document and the Markdown outline (DESIGN.md §12). JSON: a top-level
// `relationships`, a list of `{from, to, label, since?}` where `from` and `to` are codex entries by name (as an
// event's `entities` name them) and `since` counts the file's events from 0 (as a progression's `event`). Markdown:
// under the `from` entry of the codex, `- Relationship: "sister of" → "Ilan"`, then ` from "{scene}" on` when it
// holds from a scene on; label, name and scene are written as JSON strings, so any text reads back exactly.
import { fail, fmt, type TimelineDocument, type TransferRelationship, tooLong } from "./document";

/** As the relationships API allows (worker/services/relationships.ts). */
export const RELATIONSHIP_LABEL_MAX = 100;
/** What one timeline keeps, and so what one file may bring. */
export const MAX_RELATIONSHIPS = 2000;
export const TOO_MANY_IN_FILE = `at most ${fmt(MAX_RELATIONSHIPS)} relationships can be imported at once`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function name(where: string, field: "from" | "to", value: unknown) {
  const clean = typeof value === "string" ? value.trim() : "";
  if (!clean) fail(where, `${field} must be the name of a codex entry`);
  return clean;
}

/** One relationship as the file has it, checked against the file's event count. */
function checkRelationship(where: string, r: unknown, eventCount: number): TransferRelationship {
  if (!isObject(r)) return fail(where, "must be an object");
  const from = name(where, "from", r.from);
  const to = name(where, "to", r.to);
  if (from.toLowerCase() === to.toLowerCase()) fail(where, "a relationship joins two different entries");
  const label = typeof r.label === "string" ? r.label.trim() : "";
  if (!label) fail(where, "label is required");
  if (label.length > RELATIONSHIP_LABEL_MAX) fail(where, tooLong("label", RELATIONSHIP_LABEL_MAX));
  const since = r.since ?? null;
  if (since !== null && !(Number.isInteger(since) && (since as number) >= 0 && (since as number) < eventCount)) {
    fail(where, "since must be the number of one of the file's events (counting from 0)");
  }
  return { from, to, label, ...(since !== null && { since: since as number }) };
}

/** The file's `relationships`, checked against its event count (the names are matched when it is imported). */
export function jsonRelationships(raw: unknown, eventCount: number): TransferRelationship[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) return fail("File", "relationships must be a list");
  if (raw.length > MAX_RELATIONSHIPS) fail("File", TOO_MANY_IN_FILE);
  return raw.map((r, i) => checkRelationship(`Relationship ${i + 1}`, r, eventCount));
}

const quoted = (text: string) => JSON.stringify(text);
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
export const RELATIONSHIP_LINE = new RegExp(String.raw`^- Relationship: (${STRING}) → (${STRING})(?: from (${STRING}) on)?$`);

/** The `- Relationship:` lines under an entry (its relationships as `from`), oldest first. */
export function relationshipLines(entry: string, doc: { relationships?: TransferRelationship[]; events: { title: string }[] }) {
  return (doc.relationships ?? [])
    .filter((r) => r.from === entry)
    .map((r) => {
      const scene = r.since !== undefined ? doc.events[r.since] : undefined;
      return `- Relationship: ${quoted(r.label)} → ${quoted(r.to)}${scene ? ` from ${quoted(scene.title)} on` : ""}`;
    });
}

/** A `- Relationship:` line of the entry `from`, or null when the line is not one. */
export function readRelationshipLine(text: string, from: string): PendingRelationship | null {
  const match = RELATIONSHIP_LINE.exec(text);
  if (!match) return null;
  try {
    const [label, to, scene] = [match[1], match[2], match[3]].map((s) => (s === undefined ? undefined : (JSON.parse(s) as string)));
    return { from, to: to ?? "", label: label ?? "", scene };
  } catch {
    return null;
  }
}

export type PendingRelationship = { from: string; to: string; label: string; scene?: string };

/** The outline's relationship lines, their scenes found by title (the first of that title), checked as JSON's are. */
export function resolveRelationshipLines(doc: TimelineDocument, pending: (PendingRelationship & { line: number })[]) {
  if (pending.length === 0) return;
  const sceneIndex = new Map<string, number>();
  doc.events.forEach((e, i) => {
    if (!sceneIndex.has(e.title)) sceneIndex.set(e.title, i);
  });
  if (pending.length > MAX_RELATIONSHIPS) fail(`Line ${pending[MAX_RELATIONSHIPS].line}`, TOO_MANY_IN_FILE);
  doc.relationships = pending.map(({ line, from, to, label, scene }) => {
    let since: number | undefined;
    if (scene !== undefined) {
      since = sceneIndex.get(scene);
      if (since === undefined) fail(`Line ${line}`, `"${scene}" is not a scene of this outline`);
    }
    return checkRelationship(`Line ${line}`, { from, to, label, since }, doc.events.length);
  });
}

/**
 * The file's relationships whose two entries are known (`entryOf` finds one by name), and a sentence for each
 * skipped one: an import never fails over a name it cannot place.
 */
export function placeRelationships<T>(
  relationships: TransferRelationship[],
  entryOf: (name: string) => T | null,
  same: (a: T, b: T) => boolean = (a, b) => a === b,
) {
  const placed: { from: T; to: T; label: string; since: number | null }[] = [];
  const skipped: string[] = [];
  for (const r of relationships) {
    const from = entryOf(r.from);
    const to = entryOf(r.to);
    const missing = [from === null ? r.from : null, to === null ? r.to : null].filter((n): n is string => n !== null);
    if (missing.length > 0) {
      skipped.push(
        `Relationship "${r.from} — ${r.label} — ${r.to}" not imported: ${missing.map((n) => `"${n}"`).join(" and ")} ${missing.length === 1 ? "is" : "are"} not in the codex`,
      );
      continue;
    }
    if (same(from as T, to as T)) {
      skipped.push(`Relationship "${r.from} — ${r.label} — ${r.to}" not imported: both names are the same codex entry`);
      continue;
    }
    placed.push({ from: from as T, to: to as T, label: r.label, since: r.since ?? null });
  }
  return { placed, skipped };
}

/** What is left out when a timeline that has `existing` relationships would go past the cap. */
export function overCap(count: number, existing: number) {
  const room = Math.max(0, MAX_RELATIONSHIPS - existing);
  const dropped = Math.max(0, count - room);
  return {
    room,
    skipped:
      dropped > 0
        ? [
            `${fmt(dropped)} relationship${dropped === 1 ? "" : "s"} not imported: a timeline has at most ${fmt(MAX_RELATIONSHIPS)} relationships`,
          ]
        : [],
  };
}

/** The sentences a new timeline made from `doc` would report for its relationships (the import's dry run). */
export function relationshipSkips(doc: TimelineDocument) {
  const names = new Set(doc.entities.map((e) => e.name));
  const { placed, skipped } = placeRelationships(doc.relationships ?? [], (name) => (names.has(name) ? name : null));
  return [...skipped, ...overCap(placed.length, 0).skipped];
}
