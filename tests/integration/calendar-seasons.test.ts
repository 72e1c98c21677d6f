import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { GREGORIAN_SEASONS, PRESETS } from "../../db/domain/calendar";
import { FROST_THAW_SUN, reckoningCalendar } from "../fixtures/calendars";
import { call, createEvent, createTimeline, importBook, sharedTimeline } from "./helpers";

const SEASONS = [
  { name: "Thaw", startMonth: 2 },
  { name: "Blaze", startMonth: 3 },
  { name: "Deep Winter", startMonth: 1 },
];
const FANTASY = reckoningCalendar(FROST_THAW_SUN, { seasons: SEASONS });

const put = (token: string, timelineId: number, body: unknown) => call("PUT", `/api/timelines/${timelineId}/calendar`, { token, body });
const getCalendar = async (token: string, timelineId: number) =>
  (await call("GET", `/api/timelines/${timelineId}/calendar`, { token })).json;
const listOf = async (token: string, timelineId: number) =>
  (await call("GET", `/api/timelines/${timelineId}/events?order=chronological`, { token })).json as Array<{
    id: number;
    title: string;
    storyStart: string;
    storyStartDisplay: string;
  }>;

describe("calendar seasons", () => {
  it("Gregorian has four; the owner sets a calendar's seasons, everyone reads them, others may not change them", async () => {
    const { owner, collab, viewer, timelineId } = await sharedTimeline("The Reckoning");
    expect((await getCalendar(viewer.token, timelineId)).seasons).toEqual(GREGORIAN_SEASONS);

    const set = await put(owner.token, timelineId, FANTASY);
    expect(set.status, set.text).toBe(200);
    expect(set.json.seasons).toEqual(SEASONS);
    for (const who of [owner, collab, viewer]) expect(await getCalendar(who.token, timelineId)).toEqual(FANTASY);
    for (const who of [collab, viewer]) {
      const refused = await put(who.token, timelineId, { ...FANTASY, seasons: [] });
      expect(refused).toMatchObject({ status: 403, json: { error: "Only the owner of this timeline can do that" } });
    }

    // Southern seasons on a Gregorian timeline are kept; the usual four are the default again.
    const south = [{ name: "Spring", startMonth: 9 }];
    expect((await put(owner.token, timelineId, { kind: "gregorian", seasons: south })).json.seasons).toEqual(south);
    expect((await getCalendar(collab.token, timelineId)).seasons).toEqual(south);
    expect((await put(owner.token, timelineId, { kind: "gregorian" })).json).toEqual(PRESETS.gregorian.calendar);
  });

  it("refuses bad seasons with a clear message and keeps the calendar; a calendar saved before seasons has none", async () => {
    const { owner, timelineId } = await sharedTimeline("The Reckoning");
    await put(owner.token, timelineId, FANTASY);
    const cases: Array<[unknown, string]> = [
      [{ ...FANTASY, seasons: [{ name: "", startMonth: 1 }] }, "Each season needs a name"],
      [{ ...FANTASY, seasons: [{ name: "Dry", startMonth: 4 }] }, "A season must start in one of the calendar's months"],
      [{ ...FANTASY, seasons: [SEASONS[0], { name: "THAW", startMonth: 3 }] }, "Two seasons cannot have the same name"],
      [{ ...FANTASY, seasons: { name: "Dry" } }, "Seasons must be a list"],
      [{ ...PRESETS.dayN.calendar, seasons: [{ name: "Dry", startMonth: 1 }] }, "A calendar of days or weeks has no seasons"],
    ];
    for (const [body, error] of cases) expect(await put(owner.token, timelineId, body)).toMatchObject({ status: 400, json: { error } });
    expect(await getCalendar(owner.token, timelineId)).toEqual(FANTASY);

    const { seasons: _, ...old } = FANTASY;
    await env.DB.prepare("UPDATE timelines SET calendar = ? WHERE id = ?").bind(JSON.stringify(old), timelineId).run();
    expect(await getCalendar(owner.token, timelineId)).toEqual({ ...old, seasons: [] });
  });

  it("a scene typed as a season is stored at the season's first month and reads as the season", async () => {
    const { owner, collab, timelineId } = await sharedTimeline("The Reckoning");
    await put(owner.token, timelineId, FANTASY);
    const thaw = await createEvent(collab.token, timelineId, { title: "The melt", storyStart: "thaw 1203" });
    expect(thaw).toMatchObject({ storyStart: "1203-02", storyStartDisplay: "Thaw 1203 AR" });
    const deep = await createEvent(collab.token, timelineId, { title: "The long night", storyStart: "Deep Winter 1204 AR" });
    expect(deep).toMatchObject({ storyStart: "1204-01", storyStartDisplay: "Deep Winter 1204 AR" });
    const early = await createEvent(owner.token, timelineId, { title: "Before", storyStart: "blaze of 3 BR" });
    expect(early).toMatchObject({ storyStart: "-2-03", storyStartDisplay: "Blaze 3 BR" });
    const patched = await call("PATCH", `/api/events/${thaw.id}`, { token: collab.token, body: { storyEnd: "Blaze 1203 AR" } });
    expect(patched.json).toMatchObject({ storyEnd: "1203-03", storyEndDisplay: "Blaze 1203 AR" });
    expect((await listOf(owner.token, timelineId)).map((e) => e.storyStartDisplay)).toEqual([
      "Blaze 3 BR",
      "Thaw 1203 AR",
      "Deep Winter 1204 AR",
    ]);

    const unknown = await call("PATCH", `/api/events/${thaw.id}`, { token: owner.token, body: { storyStart: "monsoon 1203" } });
    expect(unknown).toMatchObject({ status: 400, json: { error: "Story start must be a date like 14 Frostmoon 1203 AR" } });

    // Seasons are names: changing them converts nothing (no 409), and a season moved reads as the month.
    const moved = await put(owner.token, timelineId, { ...FANTASY, seasons: [{ name: "Thaw", startMonth: 3 }] });
    expect(moved.status, moved.text).toBe(200);
    const after = await listOf(owner.token, timelineId);
    expect(after.find((e) => e.id === thaw.id)).toMatchObject({ storyStart: "1203-02", storyStartDisplay: "Thawmoon 1203 AR" });

    // A Gregorian timeline takes its four seasons, backward era included.
    const plain = await createTimeline(owner.token, { title: "Rome" });
    const ides = await createEvent(owner.token, plain.id, { title: "Ides", storyStart: "winter 451 BC" });
    expect(ides).toMatchObject({ storyStart: "-450-12", storyStartDisplay: "Winter 451 BC" });
  });

  it("export and import carry the seasons, and a scene dated by season reads as one after the round trip", async () => {
    const { owner, timelineId } = await sharedTimeline("The Reckoning");
    await put(owner.token, timelineId, FANTASY);
    await createEvent(owner.token, timelineId, { title: "The melt", storyStart: "thaw 1203", storyEnd: "1203-03-02" });
    const exported = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token: owner.token });
    expect(exported.json.calendar.seasons).toEqual(SEASONS);
    expect(exported.json.events[0]).toMatchObject({ storyStart: "1203-02", storyStartText: "Thaw 1203 AR", storyEnd: "1203-03-02" });
    expect(exported.json.events[0]).not.toHaveProperty("storyEndText");
    const imported = await importBook(owner.token, exported.text, "application/json");
    expect(imported.status, imported.text).toBe(201);
    const id = imported.json.id ?? imported.json.timeline?.id;
    expect(await getCalendar(owner.token, id)).toEqual(FANTASY);
    expect((await listOf(owner.token, id))[0]).toMatchObject({ storyStart: "1203-02", storyStartDisplay: "Thaw 1203 AR" });
    const dated = await createEvent(owner.token, id, { title: "Melt", storyStart: "Thaw 1203" });
    expect(dated.storyStartDisplay).toBe("Thaw 1203 AR");

    const broken = JSON.parse(exported.text);
    broken.calendar.seasons = [{ name: "Dry", startMonth: 9 }];
    const refused = await importBook(owner.token, JSON.stringify(broken), "application/json");
    expect(refused).toMatchObject({ status: 400, json: { error: "Calendar: A season must start in one of the calendar's months" } });
  });
});
