import { describe, expect, it } from "vitest";
import { builtInTemplate, builtInTemplates } from "./built-in";
import { beatDrift, sceneStarts, structureOverlay } from "./overlay";

const scene = (id: number, wordCount: number | null, title = `Scene ${id}`) => ({ id, title, wordCount });

describe("built-in beat sheets", () => {
  it("has the five structures, each beat described and in story order within 0..1", () => {
    expect(builtInTemplates.map((t) => t.id)).toEqual(["three-act", "save-the-cat", "heros-journey", "seven-point", "romance"]);
    for (const template of builtInTemplates) {
      expect(template.builtIn).toBe(true);
      expect(template.description).not.toBe("");
      template.beats.forEach((beat, i) => {
        expect(beat.at).toBeGreaterThanOrEqual(0);
        expect(beat.at).toBeLessThanOrEqual(1);
        expect(beat.description.length).toBeGreaterThan(10);
        if (i > 0) expect(beat.at).toBeGreaterThan(template.beats[i - 1].at);
      });
    }
    expect(builtInTemplate("save-the-cat")?.beats).toHaveLength(15);
    expect(builtInTemplate("heros-journey")?.beats).toHaveLength(12);
    expect(builtInTemplate("save-the-cat")?.beats.find((b) => b.title === "Midpoint")?.at).toBe(0.5);
  });
});

describe("structureOverlay", () => {
  const beats = [
    { title: "Start", description: "", at: 0 },
    { title: "Midpoint", description: "", at: 0.5 },
    { title: "End", description: "", at: 1 },
  ];

  it("places beats by scene count when no scene has words", () => {
    const scenes = [scene(1, null), scene(2, 0), scene(3, null), scene(4, 0)];
    expect(structureOverlay(beats, scenes)).toEqual({
      basis: "scenes",
      beats: [
        { title: "Start", description: "", at: 0, eventId: 1 },
        { title: "Midpoint", description: "", at: 0.5, eventId: 3 },
        { title: "End", description: "", at: 1, eventId: 4 },
      ],
    });
  });

  it("places beats by words when the scenes have words", () => {
    // 100 + 300 + 100 words: half the story (250) falls inside the second scene; an empty scene holds no beat.
    const scenes = [scene(1, 100), scene(2, 300), scene(3, 100), scene(4, 0)];
    const overlay = structureOverlay(beats, scenes);
    expect(overlay.basis).toBe("words");
    expect(overlay.beats.map((b) => b.eventId)).toEqual([1, 2, 3]);
  });

  it("has no scene for a beat of an empty story", () => {
    expect(structureOverlay(beats, []).beats.map((b) => b.eventId)).toEqual([null, null, null]);
  });

  it("tells where each scene starts", () => {
    expect(sceneStarts([scene(1, 100), scene(2, 300), scene(3, 100)])).toEqual([0, 0.2, 0.8]);
    expect(sceneStarts([scene(1, null), scene(2, null)])).toEqual([0, 0.5]);
  });

  it("flags a beat's own scene that sits far from the beat's place", () => {
    const late = [scene(1, 700), scene(2, 100, "midpoint"), scene(3, 200)];
    expect(beatDrift(beats[1], late)).toBe(0.7);
    const onTime = [scene(1, 450), scene(2, 100, "Midpoint"), scene(3, 450)];
    expect(beatDrift(beats[1], onTime)).toBeNull();
    expect(beatDrift(beats[1], [scene(1, 10)])).toBeNull();
  });
});
