import { and, asc, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Beat, type TemplateView, builtInTemplate, builtInTemplates } from "../../db/domain/templates/built-in";
import { type Overlay, structureOverlay } from "../../db/domain/templates/overlay";
import { TRANSFER_FORMAT, TRANSFER_VERSION, type TimelineDocument } from "../../db/domain/transfer/document";
import type { CreateTimeline } from "../../db/domain/validation";
import { type CreateTemplate, ownTemplateId, ownTemplateRow, templateMessages } from "../../db/domain/validation-templates";
import { type Template, type TemplateBody, type User, chapters, events, templates, timelines } from "../../db/schema";
import { badRequest, notFound } from "../lib/errors";
import { nowIso } from "../lib/time";
import { requireTimelineAccess } from "./access";
import { fillWordCounts } from "./chapter-structure";
import { type Deps, authorOf } from "./deps";
import { type TimelineView, createTimeline } from "./timelines";
import { importTimeline } from "./transfer";

// Beat sheets: the built-ins (db/domain/templates) and each writer's own, kept from one of their timelines.
// Built-in ids are words ("save-the-cat"); own ones are "u-" and the row id ("u-12"), visible to their writer only.

/** An own template's beats: its scenes, spread evenly over the story in their order. */
function ownBeats(body: TemplateBody): Beat[] {
  const count = body.scenes.length;
  return body.scenes.map((scene, i) => ({
    title: scene.title,
    description: scene.chapter !== null ? (body.chapters[scene.chapter]?.title ?? "") : "",
    at: count > 1 ? i / (count - 1) : 0,
  }));
}

function toTemplateView(row: Template): TemplateView & { chapters: { title: string }[] } {
  return {
    id: ownTemplateId(row.id),
    name: row.name,
    description: row.description,
    builtIn: false,
    beats: ownBeats(row.body),
    chapters: row.body.chapters,
  };
}

export async function listTemplates(db: Db, user: User) {
  const own = await db.select().from(templates).where(eq(templates.userId, user.id)).orderBy(desc(templates.createdAt), desc(templates.id));
  return [...builtInTemplates, ...own.map(toTemplateView)];
}

/** A template by id: any built-in, or an own one of `ownerId` (any writer's when null: a timeline's overlay). */
async function findTemplate(db: Db, id: string, ownerId: number | null) {
  const builtIn = builtInTemplate(id);
  if (builtIn) return { view: builtIn, row: null };
  const rowId = ownTemplateRow(id);
  if (rowId === null) return null;
  const row = await db
    .select()
    .from(templates)
    .where(ownerId === null ? eq(templates.id, rowId) : and(eq(templates.id, rowId), eq(templates.userId, ownerId)))
    .get();
  return row ? { view: toTemplateView(row), row } : null;
}

/** A new timeline, blank or from a template (its placeholder scenes land with it in one batch). */
export async function createTimelineFrom(db: Db, user: User, input: CreateTimeline): Promise<TimelineView> {
  if (!input.templateId) return createTimeline(db, user, input);
  const found = await findTemplate(db, input.templateId, user.id);
  if (!found) throw notFound(templateMessages.notFound);
  // A beat's prompt is the scene's synopsis, not its text: it never counts and never reaches the manuscript.
  const scene = (title: string, synopsis: string, chapter: number | null) => ({
    title,
    content: "",
    synopsis,
    storyStart: null,
    storyEnd: null,
    storyLabel: null,
    entities: [],
    pov: null,
    attachments: [],
    chapter,
  });
  const body = found.row?.body;
  const doc: TimelineDocument = {
    format: TRANSFER_FORMAT,
    version: TRANSFER_VERSION,
    timeline: { title: input.title, description: input.description ?? null },
    entities: [],
    events: body
      ? body.scenes.map((s) => scene(s.title, "", s.chapter))
      : found.view.beats.map((beat) => scene(beat.title, beat.description, null)),
    chapters: body ? body.chapters.map((c) => ({ title: c.title, targetWords: null })) : [],
  };
  return importTimeline(db, user, doc);
}

/** The timeline's scenes in story order, counted. */
async function storyScenes(db: Db, timelineId: number) {
  await fillWordCounts(db, timelineId);
  return db
    .select({ id: events.id, title: events.title, wordCount: events.wordCount })
    .from(events)
    .where(and(eq(events.timelineId, timelineId), isNull(events.deletedAt)))
    .orderBy(asc(events.position), asc(events.id));
}

export type StructureView = { templateId: string | null } & Overlay;

/** The beat sheet overlaid on a timeline, placed on its scenes (the caller checked access); null: none. */
export async function timelineStructure(db: Db, timeline: { id: number; structureTemplateId?: string | null }) {
  const found = timeline.structureTemplateId ? await findTemplate(db, timeline.structureTemplateId, null) : null;
  if (!found) return null;
  return { name: found.view.name, ...structureOverlay(found.view.beats, await storyScenes(db, timeline.id)) };
}

export async function getStructure(db: Db, user: User, timelineId: number, shareCode?: string | null): Promise<StructureView> {
  const { timeline } = await requireTimelineAccess(db, user, timelineId, "viewer", shareCode);
  const found = timeline.structureTemplateId ? await findTemplate(db, timeline.structureTemplateId, null) : null;
  const scenes = await storyScenes(db, timelineId);
  if (!found) return { templateId: null, ...structureOverlay([], scenes) };
  return { templateId: found.view.id, ...structureOverlay(found.view.beats, scenes) };
}

/** Sets (or with null clears) the beat sheet overlaid on a timeline. Edit access; an own template must be the caller's. */
export async function setStructure(
  { db, room }: Deps,
  user: User,
  timelineId: number,
  templateId: string | null,
  shareCode?: string | null,
): Promise<StructureView> {
  await requireTimelineAccess(db, user, timelineId, "collaborator", shareCode);
  if (templateId !== null && !(await findTemplate(db, templateId, user.id))) throw notFound(templateMessages.notFound);
  const updated = await db
    .update(timelines)
    .set({ structureTemplateId: templateId, updatedAt: nowIso() })
    .where(eq(timelines.id, timelineId))
    .returning()
    .get();
  room(timelineId, { action: "timeline-updated", by: authorOf(user), subject: updated.title });
  return getStructure(db, user, timelineId, shareCode);
}

/** Keeps a timeline's chapters and scene titles (in story order) as the caller's own template. Read access. */
export async function saveTemplate(db: Db, user: User, input: CreateTemplate) {
  const { timeline } = await requireTimelineAccess(db, user, input.timelineId, "viewer");
  const chapterRows = await db
    .select({ id: chapters.id, title: chapters.title })
    .from(chapters)
    .where(eq(chapters.timelineId, timeline.id))
    .orderBy(asc(chapters.position), asc(chapters.id));
  const chapterIndex = new Map(chapterRows.map((c, i) => [c.id, i]));
  const sceneRows = await db
    .select({ title: events.title, chapterId: events.chapterId })
    .from(events)
    .where(and(eq(events.timelineId, timeline.id), isNull(events.deletedAt)))
    .orderBy(asc(events.position), asc(events.id));
  if (sceneRows.length === 0 && chapterRows.length === 0) throw badRequest("Add a scene or a chapter before saving a template");
  const body: TemplateBody = {
    chapters: chapterRows.map((c) => ({ title: c.title })),
    scenes: sceneRows.map((s) => ({ title: s.title, chapter: s.chapterId !== null ? (chapterIndex.get(s.chapterId) ?? null) : null })),
  };
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const description = `From "${timeline.title}": ${plural(body.chapters.length, "chapter")}, ${plural(body.scenes.length, "scene")}.`;
  const row = await db
    .insert(templates)
    .values({ userId: user.id, name: input.name, description, body, createdAt: nowIso() })
    .returning()
    .get();
  return toTemplateView(row);
}

/** Deletes one of the caller's own templates; timelines that overlaid it show no structure any more. */
export async function deleteTemplate(db: Db, user: User, id: string) {
  if (builtInTemplate(id)) throw badRequest(templateMessages.builtIn);
  const rowId = ownTemplateRow(id);
  const deleted =
    rowId === null
      ? undefined
      : await db
          .delete(templates)
          .where(and(eq(templates.id, rowId), eq(templates.userId, user.id)))
          .returning({ id: templates.id })
          .get();
  if (!deleted) throw notFound(templateMessages.notFound);
  await db.update(timelines).set({ structureTemplateId: null }).where(eq(timelines.structureTemplateId, id));
  return { success: true };
}
