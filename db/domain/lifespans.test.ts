import { describe, expect, it } from "vitest";
import { ageAt, isLifespanOrdered, lifeFlags, sceneAges, wouldLoop } from "./lifespans";

describe("ageAt", () => {
  it.each([
    ["2014-05-10", "2031-05-10", 17],
    ["2014-05-10", "2031-05-09", 16],
    ["2014-05-10", "2031-04-30", 16],
    ["2014-05-10", "2031-06-01", 17],
    ["2014-05-10", "2031", 17],
    ["2014", "2031-01-01", 17],
    ["2014-05", "2031-05-01T09:00", 17],
    ["2014-05", "2031-04", 16],
    ["-450", "-420", 30],
    ["-450-03-02", "-420-03-01", 29],
    ["-5", "3", 8],
    ["1203", "1203", 0],
    ["2031-05-10", "2031-05-09", -1],
  ])("born %s, at %s → %i", (born, at, age) => {
    expect(ageAt(born, at)).toBe(age);
  });

  it("is null when either date is missing or not a story date", () => {
    expect(ageAt(null, "2031")).toBeNull();
    expect(ageAt("2014", null)).toBeNull();
    expect(ageAt("spring", "2031")).toBeNull();
  });
});

describe("isLifespanOrdered", () => {
  it("refuses a death wholly before the birth, accepts the same year", () => {
    expect(isLifespanOrdered("2014-05-10", "2014-05-09")).toBe(false);
    expect(isLifespanOrdered("2014-05-10", "2014")).toBe(true);
    expect(isLifespanOrdered("2014", "2090")).toBe(true);
    expect(isLifespanOrdered(null, "2090")).toBe(true);
  });
});

const mara = { id: 1, kind: "character", name: "Mara", born: "2014-05-10", died: "2060" };
const inn = { id: 2, kind: "place", name: "The Inn", born: "2100", died: null };
const scene = (id: number, storyStart: string | null, extra: Partial<{ entityIds: number[]; after: number[]; storyEnd: string }> = {}) => ({
  id,
  title: `Scene ${id}`,
  storyStart,
  storyEnd: extra.storyEnd ?? null,
  entityIds: extra.entityIds ?? [],
  after: extra.after,
});

describe("lifeFlags", () => {
  it("flags a character in a scene before birth or after death, only for characters and dated scenes", () => {
    const flags = lifeFlags(
      [
        scene(10, "2013", { entityIds: [1, 2] }),
        scene(11, "2014-05-10", { entityIds: [1] }),
        scene(12, "2061-01-01", { entityIds: [1] }),
        scene(13, "2060-12-31", { entityIds: [1] }),
        scene(14, null, { entityIds: [1] }),
        scene(15, "2010", { entityIds: [1], storyEnd: "2015" }),
      ],
      [mara, inn],
    );
    expect(flags).toEqual([
      { eventId: 10, otherEventId: 0, characterId: 1, message: "Mara is not born yet" },
      { eventId: 12, otherEventId: -1, characterId: 1, message: "Mara has died" },
    ]);
  });

  it("flags a scene whose start comes before a scene it follows; undated or missing ones are ignored", () => {
    const letter = { ...scene(1, "2031-10-12"), title: "The letter arrives" };
    const flags = lifeFlags(
      [
        letter,
        scene(2, "2031-10-11", { after: [1] }),
        scene(3, "2031-10-12T09:00", { after: [1] }),
        scene(4, null, { after: [1] }),
        scene(5, "2031-10-01", { after: [99] }),
        scene(6, "2031", { after: [1] }),
      ],
      [],
    );
    expect(flags).toEqual([{ eventId: 2, otherEventId: 1, characterId: 0, message: "Comes before The letter arrives, which it follows" }]);
  });
});

describe("sceneAges", () => {
  it("gives the ages of linked characters born by then, when the scene is dated", () => {
    expect([...sceneAges(scene(1, "2031-06-01", { entityIds: [1, 2] }), [mara, inn])]).toEqual([[1, 17]]);
    expect(sceneAges(scene(1, "2010", { entityIds: [1] }), [mara]).size).toBe(0);
    expect(sceneAges(scene(1, null, { entityIds: [1] }), [mara]).size).toBe(0);
  });
});

describe("wouldLoop", () => {
  const edges = new Map([
    [2, [1]],
    [3, [2]],
  ]);
  it("finds a loop through other scenes, and none otherwise", () => {
    expect(wouldLoop(1, [3], edges)).toBe(true);
    expect(wouldLoop(1, [2], edges)).toBe(true);
    expect(wouldLoop(4, [3], edges)).toBe(false);
    expect(wouldLoop(1, [], edges)).toBe(false);
  });
});

describe("in a calendar of its own (13 months of 28 days, a 13th month)", () => {
  it("ages, order and flags read the stored parts, not Gregorian months", () => {
    expect(ageAt("1185-13-20", "1203-13-14")).toBe(17);
    expect(ageAt("1185-13-20", "1203-13-20")).toBe(18);
    expect(isLifespanOrdered("1203-13-02", "1203-12-28")).toBe(false);
    expect(isLifespanOrdered("1203-12-28", "1203-13-02")).toBe(true);
    const mara = { id: 1, kind: "character", name: "Mara", born: "1185-13-20", died: null };
    const scene = { id: 7, title: "Before her time", entityIds: [1], storyStart: "1185-13-02", storyEnd: null };
    expect(lifeFlags([scene], [mara]).map((f) => f.message)).toEqual(["Mara is not born yet"]);
  });
});
