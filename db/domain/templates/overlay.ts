import type { Beat } from "./built-in";

// Where a beat sheet falls on a story: each beat's expected place as a share of the story's words (when its
// scenes have words, else of its scenes) and the scene found there. Pure: the server answers with it and the
// screen uses the same reckoning to warn about a beat that landed far from where it should.

export type OverlayScene = { id: number; title: string; wordCount: number | null };
export type Basis = "words" | "scenes";
export type OverlayBeat = Beat & { eventId: number | null };
export type Overlay = { basis: Basis; beats: OverlayBeat[] };

/** How far (a share of the story) a beat's own scene may sit from the beat's place before it is flagged. */
export const BEAT_DRIFT = 0.1;

const wordsOf = (scene: OverlayScene) => Math.max(0, scene.wordCount ?? 0);

export function overlayBasis(scenes: OverlayScene[]): Basis {
  return scenes.some((s) => wordsOf(s) > 0) ? "words" : "scenes";
}

/** Where each scene (in story order) starts, as a share of the story (0 to 1). */
export function sceneStarts(scenes: OverlayScene[], basis = overlayBasis(scenes)): number[] {
  if (basis === "scenes") return scenes.map((_, i) => i / scenes.length);
  const total = scenes.reduce((sum, s) => sum + wordsOf(s), 0);
  let before = 0;
  return scenes.map((s) => {
    const start = before / total;
    before += wordsOf(s);
    return start;
  });
}

/** The index of the scene where a beat at `at` falls (-1: the story has no scene). */
function sceneAt(scenes: OverlayScene[], at: number, basis: Basis) {
  if (scenes.length === 0) return -1;
  const place = Math.min(Math.max(at, 0), 1);
  if (basis === "scenes") return Math.min(scenes.length - 1, Math.floor(place * scenes.length));
  const total = scenes.reduce((sum, s) => sum + wordsOf(s), 0);
  const target = place * total;
  let end = 0;
  let lastWithWords = -1;
  for (const [i, scene] of scenes.entries()) {
    const words = wordsOf(scene);
    if (words === 0) continue;
    end += words;
    lastWithWords = i;
    if (end > target) return i;
  }
  return lastWithWords;
}

/** The beats of a sheet placed on scenes given in story order. */
export function structureOverlay(beats: Beat[], scenes: OverlayScene[]): Overlay {
  const basis = overlayBasis(scenes);
  return {
    basis,
    beats: beats.map((beat) => {
      const index = sceneAt(scenes, beat.at, basis);
      return { title: beat.title, description: beat.description, at: beat.at, eventId: index < 0 ? null : scenes[index].id };
    }),
  };
}

/**
 * Where the scene named like the beat (say 'Midpoint') actually starts, when that is more than BEAT_DRIFT away
 * from the beat's place; null when no scene has its name or it is close enough.
 */
export function beatDrift(beat: Beat, scenes: OverlayScene[], basis = overlayBasis(scenes)): number | null {
  const name = beat.title.trim().toLowerCase();
  const index = scenes.findIndex((s) => s.title.trim().toLowerCase() === name);
  if (index < 0) return null;
  const start = sceneStarts(scenes, basis)[index];
  return Math.abs(start - beat.at) > BEAT_DRIFT ? start : null;
}
