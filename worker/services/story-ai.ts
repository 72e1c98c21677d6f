import type { Db } from "../../db/client";
import { parseSuggestion } from "../../db/domain/rules";
import { eq } from "drizzle-orm";
import { type User, events } from "../../db/schema";
import { badRequest } from "../lib/errors";
import type { Env } from "../env";
import { requireTimelineAccess } from "./access";
import { type StreamOptions, runTool } from "./ai";
import { loadEventWithAccess } from "./events";
import type { SessionUser } from "./sessions";
import { buildStoryBible } from "./story-context";
import { timelineStructure } from "./templates";

/**
 * POST /api/story/suggest-plot: one next event for a timeline. Access is
 * checked before anything about AI (allowance, configuration) so a stranger learns nothing of it:
 * strangers get 404 like the timeline API; viewers may not use the Story Assistant. The story bible
 * (story-context.ts) is built here on the server.
 */
export async function suggestPlot(
  db: Db,
  env: Env,
  session: SessionUser,
  input: { timelineId: number; prompt: string; beat?: string },
  shareCode?: string | null,
  stream: StreamOptions = {},
) {
  const { timeline } = await requireTimelineAccess(db, session.user, input.timelineId, "collaborator", shareCode);
  const forBeat = input.beat === undefined ? "" : await beatRequest(db, timeline, input.beat);
  const bible = await buildStoryBible(db, env, timeline, undefined, session.user);
  const { text, usage } = await runTool(db, env, session, "plot", `${bible}\n\n${forBeat}What the writer asks: ${input.prompt}`, stream);
  const suggestion = parseSuggestion(text) ?? { title: "Untitled suggestion", content: "No content provided" };
  return { suggestion, text, usage };
}

/** The end of the current scene, where the continuation picks up: long scenes send their last part. */
const SCENE_TAIL = 6000;

async function sceneFor(db: Db, user: User, eventId: number, shareCode?: string | null) {
  const { event } = await loadEventWithAccess(db, user, eventId, "collaborator", shareCode);
  const found = await requireTimelineAccess(db, user, event.timelineId, "collaborator", shareCode);
  return { event, timeline: found.timeline };
}

/** POST /api/events/{id}/continue: the next few paragraphs of a scene, with the story bible (edit access). */
export async function continueScene(
  db: Db,
  env: Env,
  session: SessionUser,
  eventId: number,
  input: { instruction?: string },
  shareCode?: string | null,
  stream: StreamOptions = {},
) {
  const { event, timeline } = await sceneFor(db, session.user, eventId, shareCode);
  const bible = await buildStoryBible(db, env, timeline, event.id, session.user);
  const content = event.content.trim();
  const scene = content.length > SCENE_TAIL ? `…${content.slice(-SCENE_TAIL)}` : content || "(The scene is empty so far: begin it.)";
  const message = [
    bible,
    `Current scene: ${event.title}\n${scene}`,
    input.instruction ? `What the writer wants next: ${input.instruction}` : null,
    "Continue this scene from where it stops.",
  ]
    .filter(Boolean)
    .join("\n\n");
  const { text, usage } = await runTool(db, env, session, "continue", message, { ...stream, tool: "continue" });
  return { result: text, usage };
}

const TONE_HINTS: Record<string, string> = {
  Darker: "darker and more ominous",
  Lighter: "lighter and warmer",
  "More formal": "more formal",
  "More casual": "more casual and conversational",
  Tenser: "tenser, with shorter sentences and rising pressure",
};

/** POST /api/writing/transform: Describe / Rewrite / Expand a selected passage; with `eventId`, story-aware (edit access). */
export async function transformText(
  db: Db,
  env: Env,
  session: SessionUser,
  input: { mode: "describe" | "rewrite" | "expand"; text: string; tone?: string; eventId?: number },
  shareCode?: string | null,
  stream: StreamOptions = {},
) {
  let bible: string | null = null;
  if (input.eventId !== undefined) {
    const { event, timeline } = await sceneFor(db, session.user, input.eventId, shareCode);
    bible = await buildStoryBible(db, env, timeline, event.id, session.user);
    bible += `\n\nThe passage is from the scene: ${event.title}`;
  }
  const instruction =
    input.mode === "describe"
      ? "Describe: rewrite the passage with vivid sensory detail (sight, sound, smell, touch, taste) without changing what happens."
      : input.mode === "expand"
        ? "Expand: develop the passage to about twice its length with action, thought and detail, keeping every fact."
        : `Rewrite: rewrite the passage so it reads ${input.tone ? TONE_HINTS[input.tone] : "better"}.`;
  const message = [bible, `Instruction: ${instruction}`, `Passage:\n${input.text}`].filter(Boolean).join("\n\n");
  const { text, usage } = await runTool(db, env, session, "transform", message, { ...stream, tool: input.mode });
  return { result: text, usage };
}

export const BEAT_NOT_FOUND = "That beat is not in this timeline's structure";

/** 'Suggest a scene for this beat': which beat, where it should fall and the scene there now. */
async function beatRequest(db: Db, timeline: { id: number; structureTemplateId: string | null }, title: string) {
  const structure = await timelineStructure(db, timeline);
  const beat = structure?.beats.find((b) => b.title.toLowerCase() === title.toLowerCase());
  if (!beat) throw badRequest(BEAT_NOT_FOUND);
  const there =
    beat.eventId === null ? null : await db.select({ title: events.title }).from(events).where(eq(events.id, beat.eventId)).get();
  return [
    `Suggest one scene for the beat "${beat.title}" of ${structure?.name}: ${beat.description}`,
    `It should fall at ${Math.round(beat.at * 100)}% of the story${there ? `, where the scene "${there.title}" is now` : ""}.`,
    "",
  ].join("\n");
}
