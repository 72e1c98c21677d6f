import { describe, expect, it } from "vitest";
import { progressionsAsOf, statesAsOf } from "./progressions";

const scenes = [{ id: 10 }, { id: 30 }, { id: 20 }];
const list = [
  { id: 1, entityId: 7, eventId: 20, text: "Crowned" },
  { id: 2, entityId: 7, eventId: 10, text: "Swears an oath" },
  { id: 3, entityId: 7, eventId: 30, text: "Loses an eye" },
  { id: 4, entityId: 8, eventId: 99, text: "In a deleted scene" },
  { id: 5, entityId: 8, eventId: 30, text: "Burns down" },
];

describe("progressionsAsOf", () => {
  it("applies a progression from its scene on, in story order (not the order added)", () => {
    expect(progressionsAsOf(list, scenes, 10).map((p) => p.id)).toEqual([2]);
    expect(progressionsAsOf(list, scenes, 30).map((p) => p.id)).toEqual([2, 3, 5]);
    expect(progressionsAsOf(list, scenes, 20).map((p) => p.id)).toEqual([2, 3, 5, 1]);
  });
  it("at the story's end takes every progression of a listed scene; an unlisted scene takes none", () => {
    expect(progressionsAsOf(list, scenes, null).map((p) => p.id)).toEqual([2, 3, 5, 1]);
    expect(progressionsAsOf(list, scenes, 99)).toEqual([]);
    expect(progressionsAsOf(list, [], null)).toEqual([]);
  });
});

describe("statesAsOf", () => {
  it("gives each entry its latest progression then, and whether it starts at that scene", () => {
    expect([...statesAsOf(list, scenes, 30)]).toEqual([
      [7, { text: "Loses an eye", eventId: 30, startsHere: true }],
      [8, { text: "Burns down", eventId: 30, startsHere: true }],
    ]);
    expect(statesAsOf(list, scenes, 20).get(7)).toEqual({ text: "Crowned", eventId: 20, startsHere: true });
    expect(statesAsOf(list, scenes, 20).get(8)).toEqual({ text: "Burns down", eventId: 30, startsHere: false });
    expect(statesAsOf(list, scenes, 10).has(8)).toBe(false);
    expect(statesAsOf(list, scenes, null).get(7)?.startsHere).toBe(false);
  });
});
