import type { ManuscriptScene } from "../../../worker/services/manuscript-page";

/** Story order cut where the chapter changes: a heading over each run (none over scenes outside a chapter). */
export function manuscriptRuns(scenes: ManuscriptScene[]) {
  const runs: { chapterId: number | null; scenes: ManuscriptScene[] }[] = [];
  for (const scene of scenes) {
    const last = runs.at(-1);
    if (last && last.chapterId === scene.chapterId) last.scenes.push(scene);
    else runs.push({ chapterId: scene.chapterId, scenes: [scene] });
  }
  return runs;
}
