import type { Db } from "../../db/client";
import { parseSuggestion } from "../../db/rules";
import type { Env } from "../env";
import { requireTimelineAccess } from "./access";
import { runTool } from "./ai";
import { listEventsForTimeline } from "./events";
import type { SessionUser } from "./sessions";

/**
 * POST /api/story/suggest-plot: one next event for a timeline (SPEC.md §4, DESIGN.md §6). Access is
 * checked before anything about AI (allowance, configuration) so a stranger learns nothing of it:
 * strangers get 404 like the timeline API; viewers may not use the Story Assistant.
 */
export async function suggestPlot(
  db: Db,
  env: Env,
  session: SessionUser,
  input: { timelineId: number; prompt: string },
  shareCode?: string | null,
) {
  const { timeline } = await requireTimelineAccess(db, session.user, input.timelineId, "collaborator", shareCode);
  const events = await listEventsForTimeline(db, input.timelineId);
  const { text, usage } = await runTool(db, env, session, "plot", plotContext(timeline, events, input.prompt));
  const suggestion = parseSuggestion(text) ?? { title: "Untitled suggestion", content: "No content provided" };
  return { suggestion, text, usage };
}

/** The timeline as context for a plot suggestion, capped so a long timeline stays affordable. */
function plotContext(
  timeline: { title: string; description: string | null },
  events: { title: string; content: string }[],
  prompt: string,
) {
  const MAX_EVENTS = 40;
  const MAX_CHARS = 6000;
  const recent = events.slice(-MAX_EVENTS);
  let body = recent
    .map((e, i) => `${events.length - recent.length + i + 1}. ${e.title}: ${e.content.replace(/\s+/g, " ").slice(0, 300)}`)
    .join("\n");
  if (body.length > MAX_CHARS) body = `…${body.slice(-MAX_CHARS)}`;
  return [
    `Story: ${timeline.title}`,
    timeline.description ? `About: ${timeline.description.slice(0, 1000)}` : null,
    events.length
      ? `Events so far (${events.length}${events.length > recent.length ? `, latest ${recent.length} shown` : ""}):\n${body}`
      : "No events yet.",
    `What the writer asks: ${prompt}`,
  ]
    .filter(Boolean)
    .join("\n\n");
}
