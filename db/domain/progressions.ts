/**
 * One rule for a codex entry 'as of a scene' (DESIGN.md §12 'A story that knows itself'), shared by the story bible
 * on the server and by the cards, the lanes and the Map in the browser: a progression applies from its scene on,
 * scenes in story order. `scenes` is the timeline's scenes in story order; `sceneId` null means the story's end.
 * A progression whose scene is not listed (deleted, another book's) never applies; neither does anything as of a
 * scene that is not listed. The result is in story order (the same scene: the older progression first).
 */
export function progressionsAsOf<P extends { id: number; eventId: number }>(
  list: readonly P[],
  scenes: readonly { id: number }[],
  sceneId: number | null,
): P[] {
  const at = new Map(scenes.map((s, i) => [s.id, i]));
  const until = sceneId === null ? scenes.length - 1 : at.get(sceneId);
  if (until === undefined) return [];
  return list
    .filter((p) => (at.get(p.eventId) ?? Number.POSITIVE_INFINITY) <= until)
    .sort((a, b) => (at.get(a.eventId) ?? 0) - (at.get(b.eventId) ?? 0) || a.id - b.id);
}

/**
 * Each entry's state as of a scene: its latest progression then (the last in story order) and whether it starts
 * at that very scene. Entries with none are left out.
 */
export function statesAsOf<P extends { id: number; entityId: number; eventId: number; text: string }>(
  list: readonly P[],
  scenes: readonly { id: number }[],
  sceneId: number | null,
): Map<number, { text: string; eventId: number; startsHere: boolean }> {
  const states = new Map<number, { text: string; eventId: number; startsHere: boolean }>();
  for (const p of progressionsAsOf(list, scenes, sceneId)) {
    states.set(p.entityId, { text: p.text, eventId: p.eventId, startsHere: sceneId !== null && p.eventId === sceneId });
  }
  return states;
}
