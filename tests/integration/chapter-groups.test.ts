import { describe, expect, it } from "vitest";
import type { ChapterView, Scene } from "../../app/features/chapters/chapters-api";
import { groupScenes } from "../../app/features/chapters/chaptered-list";

// The timeline screen's chapter groups: in story order, and a chapter without scenes where its scenes will go.

const chapter = (id: number, position: number): ChapterView =>
  ({ id, timelineId: 1, title: `C${id}`, position, targetWords: null, wordCount: 0 }) as ChapterView;
const scene = (id: number, chapterId: number | null): Scene => ({ id, chapterId }) as Scene;
const shape = (groups: ReturnType<typeof groupScenes>) => groups.map((g) => [g.chapter?.id ?? null, g.scenes.map((s) => s.id)]);

describe("chapter groups", () => {
  it("an empty chapter sits after the chapter before it, not after every scene", () => {
    const chapters = [chapter(1, 0), chapter(2, 1), chapter(3, 2)];
    const groups = groupScenes([scene(10, 1), scene(11, 3), scene(12, null)], chapters);
    expect(shape(groups)).toEqual([
      [1, [10]],
      [2, []],
      [3, [11]],
      [null, [12]],
    ]);
  });

  it("an empty first chapter comes before the other chapters; with no scenes in chapters, after the rest", () => {
    expect(shape(groupScenes([scene(9, null), scene(10, 2)], [chapter(1, 0), chapter(2, 1)]))).toEqual([
      [null, [9]],
      [1, []],
      [2, [10]],
    ]);
    expect(shape(groupScenes([scene(9, null)], [chapter(2, 1), chapter(1, 0)]))).toEqual([
      [null, [9]],
      [1, []],
      [2, []],
    ]);
  });

  it("a filtered view heads only the chapters it shows scenes of", () => {
    const chapters = [chapter(1, 0), chapter(2, 1), chapter(3, 2)];
    expect(shape(groupScenes([scene(11, 2)], chapters, false))).toEqual([[2, [11]]]);
    expect(shape(groupScenes([scene(9, null)], chapters, false))).toEqual([[null, [9]]]);
  });
});
