import { describe, expect, it } from "vitest";
import {
  buildLanes,
  type EventFilter,
  filterEvents,
  filterFromParams,
  filterToParams,
  isFiltering,
  noFilter,
  type StoryEntity,
  type StoryEvent,
  unlinkedMentions,
} from "./story-analysis";
import { PRESETS } from "./calendar/types";
import { continuityFlags, storyGap, storySpan } from "./story-gaps";

const mara: StoryEntity = { id: 1, kind: "character", name: "Mara", aliases: ["The Captain"] };
const ilse: StoryEntity = { id: 2, kind: "character", name: "Ilse", aliases: [] };
const harbor: StoryEntity = { id: 10, kind: "place", name: "Harbor", aliases: [] };
const tower: StoryEntity = { id: 11, kind: "place", name: "Tower", aliases: [] };
const codex = [mara, ilse, harbor, tower];

let nextId = 100;
function ev(fields: Partial<StoryEvent>): StoryEvent {
  return { id: nextId++, title: "Scene", content: "", entityIds: [], povEntityId: null, storyStart: null, storyEnd: null, ...fields };
}

describe("storySpan", () => {
  it("covers the whole of a coarse date and a range up to the end of its last part", () => {
    const year = storySpan(ev({ storyStart: "2024" }))!;
    const march = storySpan(ev({ storyStart: "2024-03-15" }))!;
    expect(year.from).toBeLessThan(march.from);
    expect(year.to).toBeGreaterThan(march.to);
    const range = storySpan(ev({ storyStart: "-450", storyEnd: "-449-06" }))!;
    expect(range.to).toBeGreaterThan(storySpan(ev({ storyStart: "-449-06-30" }))!.from);
    expect(storySpan(ev({}))).toBeNull();
  });
});

describe("buildLanes", () => {
  it("puts each event in the lane of every character it links, in its column, POV marked, unlinked last", () => {
    const a = ev({ entityIds: [1, 2, 10], povEntityId: 2 });
    const b = ev({ entityIds: [10] });
    const c = ev({ entityIds: [1] });
    const lanes = buildLanes([a, b, c], codex, "character");
    expect(lanes.map((l) => l.entity?.name ?? null)).toEqual(["Ilse", "Mara", null]);
    expect(lanes[0].cells).toEqual([{ event: a, column: 0, isPov: true }]);
    expect(lanes[1].cells.map((x) => [x.event.id, x.column, x.isPov])).toEqual([
      [a.id, 0, false],
      [c.id, 2, false],
    ]);
    expect(lanes[2].cells.map((x) => x.column)).toEqual([1]);
    const places = buildLanes([a, b, c], codex, "place");
    expect(places.map((l) => l.entity?.name ?? null)).toEqual(["Harbor", "Tower", null]);
    expect(places[1].cells).toEqual([]);
  });
});

describe("continuityFlags", () => {
  it("flags a character in two places at overlapping story times, both ways", () => {
    const inHarbor = ev({ title: "Storm", entityIds: [1, 10], storyStart: "1200-05-03" });
    const inTower = ev({ title: "Vigil", entityIds: [1, 11], storyStart: "1200-05-03T22:00" });
    const flags = continuityFlags([inHarbor, inTower], codex);
    expect(flags).toHaveLength(2);
    expect(flags[0]).toMatchObject({ eventId: inHarbor.id, otherEventId: inTower.id, characterId: 1 });
    expect(flags[0].message).toBe("Mara is also in Tower at this time ('Vigil')");
    expect(flags[1].message).toBe("Mara is also in Harbor at this time ('Storm')");
  });

  it("does not flag different days, a shared place, other characters, or events without places or dates", () => {
    expect(
      continuityFlags([ev({ entityIds: [1, 10], storyStart: "1200-05-03" }), ev({ entityIds: [1, 11], storyStart: "1200-05-04" })], codex),
    ).toEqual([]);
    expect(
      continuityFlags([ev({ entityIds: [1, 10, 11], storyStart: "1200" }), ev({ entityIds: [1, 11], storyStart: "1200-02" })], codex),
    ).toEqual([]);
    expect(
      continuityFlags([ev({ entityIds: [1, 10], storyStart: "1200" }), ev({ entityIds: [2, 11], storyStart: "1200" })], codex),
    ).toEqual([]);
    expect(continuityFlags([ev({ entityIds: [1], storyStart: "1200" }), ev({ entityIds: [1, 11], storyStart: "1200" })], codex)).toEqual(
      [],
    );
    expect(continuityFlags([ev({ entityIds: [1, 10] }), ev({ entityIds: [1, 11] })], codex)).toEqual([]);
  });
});

describe("storyGap", () => {
  const at = (storyStart: string | null, storyEnd: string | null = null) => ({ storyStart, storyEnd });
  it("puts the distance between consecutive dated events in words", () => {
    expect(storyGap(at("2024-03-05"), at("2024-03-08"))).toBe("3 days later");
    expect(storyGap(at("2024-03-05"), at("2024-03-06"))).toBe("1 day later");
    expect(storyGap(at("2024-03-05T06:00"), at("2024-03-05T09:30"))).toBe("4 hours later");
    expect(storyGap(at("2024-03-05T06:00"), at("2024-03-05T06:20"))).toBe("20 minutes later");
    expect(storyGap(at("2024-01"), at("2024-04"))).toBe("3 months later");
    expect(storyGap(at("-450"), at("-448"))).toBe("2 years later");
    expect(storyGap(at("2024-03-01", "2024-03-10"), at("2024-03-12"))).toBe("2 days later");
  });
  it("says when they overlap or coincide, and nothing for undated events", () => {
    expect(storyGap(at("2024"), at("2024-06"))).toBe("Overlaps");
    expect(storyGap(at("2024-03-01", "2024-03-10"), at("2024-03-05"))).toBe("Overlaps");
    expect(storyGap(at("2024-03-05"), at("2024-03-05"))).toBe("Same time");
    expect(storyGap(at(null), at("2024"))).toBeNull();
  });
  it("compares days, never hours, when only one of the two has a time", () => {
    expect(storyGap(at("2031-10-11T21:00"), at("2031-10-12"))).toBe("The next day");
    expect(storyGap(at("2031-10-11T09:00"), at("2031-10-11"))).toBe("The same day");
    expect(storyGap(at("2031-10-11"), at("2031-10-12T06:00"))).toBe("The next day");
    expect(storyGap(at("2031-10-11T21:00"), at("2031-10-14"))).toBe("3 days later");
  });
});

describe("unlinkedMentions", () => {
  it("finds names and aliases as whole words in any case, skipping linked entries", () => {
    const event = ev({ title: "At the harbor", content: "the captain waits; Ilsebeth sings", entityIds: [] });
    expect(unlinkedMentions(event, codex).map((e) => e.name)).toEqual(["Mara", "Harbor"]);
    expect(unlinkedMentions({ ...event, entityIds: [1] }, codex).map((e) => e.name)).toEqual(["Harbor"]);
    expect(unlinkedMentions(ev({ content: "Ilse." }), codex).map((e) => e.name)).toEqual(["Ilse"]);
    expect(unlinkedMentions(ev({ content: "Café (Ilse)" }), [{ ...ilse, name: "Café" }]).map((e) => e.name)).toEqual(["Café"]);
  });
});

describe("filters", () => {
  const a = ev({ title: "Storm at the harbor", entityIds: [1, 10], storyStart: "1200" });
  const b = ev({ title: "Vigil", content: "A STORM comes", entityIds: [1, 2] });
  const c = ev({ title: "Letters", entityIds: [2], storyStart: "not a date" });
  const all = [a, b, c];

  it("combines entries (any/all), text and dated/undated", () => {
    const f = (over: Partial<EventFilter>) => filterEvents(all, { ...noFilter, ...over }).map((e) => e.id);
    expect(f({})).toEqual([a.id, b.id, c.id]);
    expect(f({ entityIds: [1, 2] })).toEqual([a.id, b.id, c.id]);
    expect(f({ entityIds: [1, 2], match: "all" })).toEqual([b.id]);
    expect(f({ text: " storm " })).toEqual([a.id, b.id]);
    expect(f({ dated: "dated" })).toEqual([a.id]);
    expect(f({ dated: "undated", entityIds: [2] })).toEqual([b.id, c.id]);
    expect(f({ entityIds: [1], text: "storm", dated: "undated" })).toEqual([b.id]);
  });

  it("keeps one chapter's scenes, or the scenes in no chapter", () => {
    const scenes = [
      { ...a, chapterId: 4 },
      { ...b, chapterId: null },
      { ...c, chapterId: 4 },
    ];
    const f = (over: Partial<EventFilter>) => filterEvents(scenes, { ...noFilter, ...over }).map((e) => e.id);
    expect(f({ chapter: 4 })).toEqual([a.id, c.id]);
    expect(f({ chapter: "none" })).toEqual([b.id]);
    expect(f({ chapter: 9 })).toEqual([]);
    expect(f({ chapter: 4, text: "storm" })).toEqual([a.id]);
    expect(isFiltering({ ...noFilter, chapter: "none" })).toBe(true);
    expect(filterToParams({ ...noFilter, chapter: 4 }, new URLSearchParams()).toString()).toBe("chapter=4");
    expect(filterFromParams(new URLSearchParams("chapter=none"))).toEqual({ ...noFilter, chapter: "none" });
    expect(filterFromParams(new URLSearchParams("chapter=12"))).toEqual({ ...noFilter, chapter: 12 });
    for (const junk of ["0", "-3", "2.5", "x", "", "1e3"])
      expect(filterFromParams(new URLSearchParams({ chapter: junk })).chapter).toBeNull();
  });

  it("filters by status (one of the five, or none) and keeps it in the address", () => {
    const scenes = [
      { id: 1, title: "a", content: "", entityIds: [], storyStart: null, status: "Draft" },
      { id: 2, title: "b", content: "", entityIds: [], storyStart: null, status: null },
      { id: 3, title: "c", content: "", entityIds: [], storyStart: null, status: "Done" },
    ];
    const f = (over: Partial<EventFilter>) => filterEvents(scenes, { ...noFilter, ...over }).map((e) => e.id);
    expect(f({ status: "Draft" })).toEqual([1]);
    expect(f({ status: "none" })).toEqual([2]);
    expect(f({})).toEqual([1, 2, 3]);
    expect(isFiltering({ ...noFilter, status: "Done" })).toBe(true);
    expect(filterToParams({ ...noFilter, status: "Revised" }, new URLSearchParams()).toString()).toBe("status=Revised");
    expect(filterFromParams(new URLSearchParams("status=none")).status).toBe("none");
    for (const junk of ["draft", "x", "", "Done "]) expect(filterFromParams(new URLSearchParams({ status: junk })).status).toBeNull();
  });

  it("filters by assignee (scenes where they have an open task) and keeps it in the address", () => {
    const scenes = [
      { id: 1, title: "a", content: "", entityIds: [], storyStart: null, assigneeIds: [4, 9] },
      { id: 2, title: "b", content: "", entityIds: [], storyStart: null, assigneeIds: [] },
      { id: 3, title: "c", content: "", entityIds: [], storyStart: null, assigneeIds: [9] },
      { id: 4, title: "d", content: "", entityIds: [], storyStart: null },
    ];
    const f = (over: Partial<EventFilter>) => filterEvents(scenes, { ...noFilter, ...over }).map((e) => e.id);
    expect(f({ assignee: 9 })).toEqual([1, 3]);
    expect(f({ assignee: 4 })).toEqual([1]);
    expect(f({ assignee: 5 })).toEqual([]);
    expect(f({ assignee: 9, text: "c" })).toEqual([3]);
    expect(isFiltering({ ...noFilter, assignee: 4 })).toBe(true);
    expect(filterToParams({ ...noFilter, assignee: 12 }, new URLSearchParams()).toString()).toBe("assignee=12");
    expect(filterFromParams(new URLSearchParams("assignee=12")).assignee).toBe(12);
    for (const junk of ["0", "-3", "me", "", "1.5", "99999999999999"])
      expect(filterFromParams(new URLSearchParams({ assignee: junk })).assignee).toBeNull();
  });

  it("round-trips through the address and ignores junk in it", () => {
    const filter: EventFilter = {
      entityIds: [3, 7],
      match: "all",
      text: "storm",
      dated: "undated",
      chapter: null,
      status: null,
      assignee: null,
    };
    const params = filterToParams(filter, new URLSearchParams("order=chronological"));
    expect(params.toString()).toBe("order=chronological&entity=3%2C7&match=all&q=storm&dated=undated");
    expect(filterFromParams(params)).toEqual(filter);
    expect(filterFromParams(new URLSearchParams("entity=5"))).toEqual({ ...noFilter, entityIds: [5] });
    expect(filterFromParams(new URLSearchParams("entity=x,-1,2.5,4,4&match=weird&dated=maybe"))).toEqual({ ...noFilter, entityIds: [4] });
    expect(filterToParams(noFilter, new URLSearchParams("entity=4&q=x")).toString()).toBe("");
    expect(isFiltering(noFilter)).toBe(false);
    expect(isFiltering({ ...noFilter, dated: "dated" })).toBe(true);
  });
});

describe("story time in the timeline's calendar", () => {
  const moons = PRESETS.thirteen.calendar;
  const at = (storyStart: string | null, storyEnd: string | null = null) => ({ storyStart, storyEnd });
  it("counts a 13 × 28 days calendar's own days, months and years", () => {
    // 13 Frostmoon to 3 Snowmoon: 15 days left of a 28-day month, then 3.
    expect(storyGap(at("1203-01-13"), at("1203-02-03"), moons)).toBe("18 days later");
    expect(storyGap(at("1203-01-01"), at("1203-02-01"), moons)).toBe("1 month later");
    expect(storyGap(at("1203-12-20"), at("1203-13-27"), moons)).toBe("1 month later");
    expect(storyGap(at("1203-13-28"), at("1204-01-01"), moons)).toBe("1 day later");
    expect(storyGap(at("1203-01"), at("1205-01"), moons)).toBe("2 years later");
    expect(storyGap(at("1203-13-27T21:00"), at("1203-13-28"), moons)).toBe("The next day");
  });
  it("reads a relative calendar's days and weeks, and a custom day's hours", () => {
    const days = PRESETS.dayN.calendar;
    expect(storyGap(at("3"), at("40"), days)).toBe("37 days later");
    expect(storyGap(at("3-01-01T18:00"), at("4"), days)).toBe("The next day");
    expect(storyGap(at("2"), at("16"), { ...days, relativeUnit: "week" })).toBe("14 weeks later");
    const longDays = { ...moons, hoursPerDay: 30 };
    expect(storyGap(at("1203-01-01T20:00"), at("1203-01-02T01:00"), longDays)).toBe("11 hours later");
  });
  it("finds overlaps and clashes in the calendar's months", () => {
    expect(storyGap(at("1203-13"), at("1203-13-28"), moons)).toBe("Overlaps");
    const span = storySpan(ev({ storyStart: "1203-13" }), moons)!;
    expect(span.to - span.from).toBe(28 * 1440);
    const flags = continuityFlags(
      [ev({ entityIds: [1, 10], storyStart: "1203-13-05" }), ev({ entityIds: [1, 11], storyStart: "1203-13" })],
      codex,
      moons,
    );
    expect(flags).toHaveLength(2);
  });
  it("counts a dated filter's scenes in any calendar", () => {
    const festival = ev({ storyStart: "1203-13-05" });
    expect(filterEvents([festival, ev({})], { ...noFilter, dated: "dated" })).toEqual([festival]);
  });
});
