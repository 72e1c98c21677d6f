import type { Db } from "../../db/client";
import type { User } from "../../db/schema";
import { ageAt } from "../../db/domain/lifespans";
import type { Env } from "../env";
import { listChapterRows } from "./chapters";
import { listEntitiesForTimeline } from "./entities";
import { progressionsOf } from "./progressions";
import { progressionsAsOf } from "../../db/domain/progressions";
import { relationshipsOf } from "./relationships";
import { listEventsForTimeline } from "./events";
import { listPlotlinesOf } from "./plotlines";
import { timelineStructure } from "./templates";

/**
 * The story bible timeline AI tools send: built here on the
 * server from data the caller may read (the caller checked access), never from client-supplied
 * context. Title and description, the codex (name, kind, ≤200-char description), and the events
 * around the current one in story order: full text of the nearest, titles and short summaries of the
 * farther ones, trimmed to AI_CONTEXT_BUDGET_TOKENS (tokens estimated as characters / 4).
 */

export const DEFAULT_CONTEXT_BUDGET_TOKENS = 3000;
const CHARS_PER_TOKEN = 4;
const CODEX_DESCRIPTION = 200;
const FULL_EVENT = 1500;
const SUMMARY = 160;
/** Events this close to the current one (or to the end) are sent in full when the budget allows. */
const NEAR = 2;
/** Beats of a structure listed (an own template has one per scene it kept). */
const MAX_BEATS = 40;

export function contextBudgetChars(env: Partial<Env>) {
  const n = Number(env.AI_CONTEXT_BUDGET_TOKENS);
  return (Number.isInteger(n) && n > 0 ? n : DEFAULT_CONTEXT_BUDGET_TOKENS) * CHARS_PER_TOKEN;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

type Timelineish = { id: number; title: string; description: string | null; structureTemplateId?: string | null };

/**
 * `currentEventId`: the scene being written (it is left out of the list: the caller sends it in full);
 * without it the story's end is the centre (plot suggestions: what comes next).
 */
export async function buildStoryBible(
  db: Db,
  env: Partial<Env>,
  timeline: Timelineish,
  currentEventId: number | undefined,
  writer: Pick<User, "id">,
): Promise<string> {
  // The codex as the writer may read it: of a series', only the entries of the books they can read.
  const [chapters, codex] = await Promise.all([listChapterRows(db, timeline.id), listEntitiesForTimeline(db, timeline.id, writer)]);
  // With chapters the scenes are listed in story order under their chapters; without, in story time.
  const events = await listEventsForTimeline(db, timeline.id, chapters.length > 0 ? "position" : "chronological");
  const chapterTitle = new Map(chapters.map((c, i) => [c.id, `Chapter ${i + 1}: ${c.title}`]));
  const plotlineTitle = new Map((await listPlotlinesOf(db, timeline.id)).map((p) => [p.id, p.title]));
  const plotlineNames = (ids: number[]) => ids.flatMap((id) => plotlineTitle.get(id) ?? []).join(", ");
  /** ' [Plotlines: Main plot, Romance]' after a scene's title, when it belongs to any. */
  const plotlinesOf = (ids: number[]) => (plotlineNames(ids) ? ` [Plotlines: ${plotlineNames(ids)}]` : "");
  let budget = contextBudgetChars(env);
  const take = (line: string) => {
    if (line.length + 1 > budget) return false;
    budget -= line.length + 1;
    return true;
  };

  const header = [`Story: ${timeline.title}`];
  if (timeline.description) header.push(`About: ${cut(oneLine(timeline.description), 1000)}`);
  for (const line of header) take(line);

  // Each entry as of this scene: its progressions from scenes up to and including this one (story order).
  const sceneIndex = new Map(events.map((e, i) => [e.id, i]));
  const asOf = currentEventId === undefined ? events.length : (sceneIndex.get(currentEventId) ?? events.length);
  // The same rule as the cards, the lanes and the Map (db/domain/progressions.ts); an unknown scene reads as the end.
  const asOfScene = currentEventId !== undefined && sceneIndex.has(currentEventId) ? currentEventId : null;
  const changes = new Map<number, string[]>();
  for (const p of progressionsAsOf(
    await progressionsOf(
      db,
      codex.map((e) => e.id),
    ),
    events,
    asOfScene,
  )) {
    changes.set(p.entityId, [
      ...(changes.get(p.entityId) ?? []),
      `from "${events[sceneIndex.get(p.eventId) ?? 0].title}" on: ${cut(oneLine(p.text), CODEX_DESCRIPTION)}`,
    ]);
  }
  const codexLines: string[] = [];
  for (const e of codex) {
    const since = changes.get(e.id);
    const line = `- ${e.name} (${e.kind})${e.description ? `: ${cut(oneLine(e.description), CODEX_DESCRIPTION)}` : ""}${since ? ` (${since.join("; ")})` : ""}`;
    if (!take(line)) break;
    codexLines.push(line);
  }

  // Relationships as of this scene: those always true, and those from a scene up to and including this one.
  const nameOf = new Map(codex.map((e) => [e.id, e.name]));
  const relationshipLines: string[] = [];
  for (const r of await relationshipsOf(db, timeline.id)) {
    const at = r.sinceEventId === null ? -1 : sceneIndex.get(r.sinceEventId);
    if (at === undefined || at > asOf || !nameOf.has(r.fromId) || !nameOf.has(r.toId)) continue;
    const line = `- ${nameOf.get(r.fromId)} ${oneLine(r.label)} ${nameOf.get(r.toId)}${at >= 0 ? ` (from "${events[at].title}" on)` : ""}`;
    if (!take(line)) break;
    relationshipLines.push(line);
  }

  const centre = currentEventId === undefined ? events.length : events.findIndex((e) => e.id === currentEventId);
  const pivot = centre < 0 ? events.length : centre;
  // Nearest first: full text close by, a short summary farther away; whatever no longer fits is left out.
  const order = events
    .map((event, index) => ({ event, index, distance: index < pivot ? pivot - index : index - pivot }))
    .filter((x) => x.event.id !== currentEventId)
    .sort((a, b) => a.distance - b.distance || a.index - b.index);
  const chosen = new Map<number, string>();
  for (const { event, index, distance } of order) {
    const content = oneLine(event.content);
    const when = event.storyStartDisplay ? ` (${event.storyStartDisplay})` : "";
    const title = event.title + when + plotlinesOf(event.plotlineIds);
    const full = `${title}: ${cut(content, FULL_EVENT)}`;
    const short = content ? `${title}: ${cut(content, SUMMARY)}` : title;
    const label = `${index + 1}. `;
    if (distance <= NEAR && take(label + full)) chosen.set(index, label + full);
    else if (take(label + short)) chosen.set(index, label + short);
    else if (take(label + title)) chosen.set(index, label + title);
  }
  const eventLines: string[] = [];
  let chapterAt: number | null = null;
  for (const [index, line] of [...chosen.entries()].sort((a, b) => a[0] - b[0])) {
    const chapterId = events[index].chapterId;
    if (chapters.length > 0 && chapterId !== chapterAt) {
      eventLines.push(chapterId === null ? "(No chapter)" : (chapterTitle.get(chapterId) ?? "(No chapter)"));
      chapterAt = chapterId;
    }
    eventLines.push(line);
  }

  const parts = [header.join("\n")];
  if (codexLines.length) parts.push(`Codex (characters, places, things):\n${codexLines.join("\n")}`);
  if (relationshipLines.length) parts.push(`Relationships:\n${relationshipLines.join("\n")}`);
  if (plotlineTitle.size > 0) parts.push(`Plotlines: ${[...plotlineTitle.values()].join(", ")}`);
  const before = currentEventId === undefined ? "Events so far" : "Nearby events";
  parts.push(
    events.length > (currentEventId === undefined ? 0 : 1)
      ? `${before} (${events.length} in the story${chosen.size < events.length ? `, ${chosen.size} shown` : ""}):\n${eventLines.join("\n")}`
      : "No other events yet.",
  );
  const current = events.find((e) => e.id === currentEventId);
  if (current?.chapterId != null && chapterTitle.has(current.chapterId))
    parts.push(`This scene is in ${chapterTitle.get(current.chapterId)}`);
  if (current && plotlineNames(current.plotlineIds)) parts.push(`This scene's plotlines: ${plotlineNames(current.plotlineIds)}`);
  if (current) parts.push(...sceneFacts(current, events, codex));
  const structure = await timelineStructure(db, timeline);
  if (structure) {
    const titleOf = new Map(events.map((e) => [e.id, e.title]));
    const beats = structure.beats
      .slice(0, MAX_BEATS)
      .map((b) => `- ${b.title} (${Math.round(b.at * 100)}%)${b.eventId !== null ? `: ${titleOf.get(b.eventId) ?? ""}` : ""}`);
    parts.push(`Structure (${structure.name}), each beat with the scene where it falls:\n${beats.join("\n")}`);
    const own = structure.beats.filter((b) => b.eventId === currentEventId);
    if (current && own.length) parts.push(`This scene falls on: ${own.map((b) => `${b.title} (${b.description})`).join("; ")}`);
  }
  return parts.join("\n\n");
}

type Scene = Awaited<ReturnType<typeof listEventsForTimeline>>[number];

/**
 * What story time says of the scene being written: when it happens, its characters with their ages then
 * ('Mara (17)'), and the scenes it must come after ('comes after: The letter arrives').
 */
function sceneFacts(current: Scene, events: Scene[], codex: Awaited<ReturnType<typeof listEntitiesForTimeline>>) {
  const facts: string[] = [];
  if (current.storyStartDisplay) {
    const end = current.storyEndDisplay ? ` to ${current.storyEndDisplay}` : "";
    facts.push(`This scene's story time: ${current.storyStartDisplay}${end}`);
  }
  const byId = new Map(codex.map((e) => [e.id, e]));
  const characters = current.entityIds.flatMap((id) => {
    const c = byId.get(id);
    if (c?.kind !== "character") return [];
    const age = ageAt(c.born, current.storyStart);
    return [age !== null && age >= 0 ? `${c.name} (${age})` : c.name];
  });
  if (characters.length) facts.push(`Characters in this scene: ${characters.join(", ")}`);
  const titleOf = new Map(events.map((e) => [e.id, e.title]));
  const after = current.after.flatMap((id) => titleOf.get(id) ?? []);
  if (after.length) facts.push(`This scene comes after: ${after.join(", ")}`);
  return facts;
}
