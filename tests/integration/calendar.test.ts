import { describe, expect, it } from "vitest";
import { PRESETS } from "../../db/domain/calendar";
import { FROST_THAW_SUN, reckoningCalendar } from "../fixtures/calendars";
import { call, createEvent, createTimeline, importBook, registerUser, shareWith, sharedTimeline } from "./helpers";

const FANTASY = reckoningCalendar(FROST_THAW_SUN, { weekdays: ["Moonday", "Starday"] });

/** The helpers' shared timeline ("The Reckoning"), plus Rae: a collaborator once, whose share the owner removed. */
async function reckoning() {
  const shared = await sharedTimeline("The Reckoning");
  const removed = await registerUser({ name: "Rae" });
  await shareWith(shared.timelineId, shared.owner.user.id, removed.user.id, "collaborator");
  const gone = await call("DELETE", `/api/timelines/${shared.timelineId}/shares/${removed.user.id}`, { token: shared.owner.token });
  expect(gone.status).toBe(200);
  return { ...shared, removed };
}

const eventOf = async (token: string, timelineId: number, id: number) =>
  (await call("GET", `/api/timelines/${timelineId}/events`, { token })).json.find((e: { id: number }) => e.id === id);

const put = (token: string, timelineId: number, body: unknown) => call("PUT", `/api/timelines/${timelineId}/calendar`, { token, body });

describe("calendar", () => {
  it("is Gregorian until the owner sets one; roles read and write as the access rules say", async () => {
    const { owner, collab, viewer, stranger, removed, timelineId } = await reckoning();
    const path = `/api/timelines/${timelineId}/calendar`;
    const first = await call("GET", path, { token: viewer.token });
    expect(first.status).toBe(200);
    expect(first.json).toEqual(PRESETS.gregorian.calendar);

    const set = await put(owner.token, timelineId, FANTASY);
    expect(set.status, set.text).toBe(200);
    expect(set.json).toEqual(FANTASY);
    for (const token of [owner.token, collab.token, viewer.token]) expect((await call("GET", path, { token })).json).toEqual(FANTASY);

    expect(await put(collab.token, timelineId, FANTASY)).toMatchObject({
      status: 403,
      json: { error: "Only the owner of this timeline can do that" },
    });
    expect((await put(viewer.token, timelineId, FANTASY)).status).toBe(403);
    for (const who of [stranger, removed]) {
      expect(await call("GET", path, { token: who.token })).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
      expect((await put(who.token, timelineId, FANTASY)).status).toBe(404);
    }
    expect((await call("GET", path)).status).toBe(401);
  });

  it("refuses a bad calendar with a clear message, never a 500, and keeps the old one", async () => {
    const { owner, timelineId } = await reckoning();
    await put(owner.token, timelineId, FANTASY);
    const cases: Array<[unknown, string]> = [
      [{ kind: "custom", months: [] }, "A calendar needs at least one month"],
      [{ kind: "custom", months: [{ name: "A", days: 1001 }] }, "A month has 1-1000 days"],
      [{ kind: "custom", months: [{ name: "x".repeat(41), days: 3 }] }, "Each month needs a name of 1-40 characters"],
      [{ kind: "custom", months: [{ name: "A", days: 3 }], hoursPerDay: 0 }, "Hours per day must be a whole number from 1 to 100"],
      [{ kind: "custom", months: Array(101).fill({ name: "A", days: 1 }) }, "A calendar can have at most 100 months"],
      [{ kind: "custom", months: [{ name: "A", days: 3 }], eras: "AR" }, "Months, weekdays and eras must be lists"],
      [{ kind: "moon" }, "Calendar kind must be gregorian, custom or relative"],
      [[1, 2], "A calendar must be an object"],
    ];
    for (const [body, error] of cases) {
      const res = await put(owner.token, timelineId, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toEqual({ error });
    }
    const malformed = await call("PUT", `/api/timelines/${timelineId}/calendar`, { token: owner.token, rawBody: "{kind: custom" });
    expect(malformed.status).toBe(400);
    const huge = await call("PUT", `/api/timelines/${timelineId}/calendar`, {
      token: owner.token,
      body: { ...FANTASY, months: [{ name: "x".repeat(3_000_000), days: 3 }] },
    });
    expect([400, 413]).toContain(huge.status);
    expect((await call("GET", `/api/timelines/${timelineId}/calendar`, { token: owner.token })).json).toEqual(FANTASY);
  });

  it("reads typed dates in the calendar's words, shows them in words, and refuses with an example", async () => {
    const { owner, collab, timelineId } = await reckoning();
    await put(owner.token, timelineId, FANTASY);
    const scene = await createEvent(collab.token, timelineId, { title: "The siege", storyStart: "14 Frostmoon 1203 AR" });
    expect(scene).toMatchObject({
      storyStart: "1203-01-14",
      storyStartDisplay: "14 Frostmoon 1203 AR",
      storyEnd: null,
      storyEndDisplay: null,
    });
    const patched = await call("PATCH", `/api/events/${scene.id}`, { token: collab.token, body: { storyEnd: "2 Sunmoon 1203 AR, dusk" } });
    expect(patched.json).toMatchObject({ storyEnd: "1203-03-02T18:00", storyEndDisplay: "2 Sunmoon 1203 AR, 18:00" });
    const early = await createEvent(owner.token, timelineId, { title: "Before", storyStart: "Thawmoon 3 BR" });
    expect(early).toMatchObject({ storyStart: "-2-02", storyStartDisplay: "Thawmoon 3 BR" });

    const bad = await call("PATCH", `/api/events/${scene.id}`, { token: owner.token, body: { storyStart: "13 October 2031" } });
    expect(bad).toMatchObject({ status: 400, json: { error: "Story start must be a date like 14 Frostmoon 1203 AR" } });
    const month = await call("PATCH", `/api/events/${scene.id}`, { token: owner.token, body: { storyStart: "1203-04" } });
    expect(month.json).toEqual({ error: "Start has a month outside 01-03" });

    const list = (await call("GET", `/api/timelines/${timelineId}/events?order=chronological`, { token: owner.token })).json;
    expect(list.map((e: { storyStartDisplay: string }) => e.storyStartDisplay)).toEqual(["Thawmoon 3 BR", "14 Frostmoon 1203 AR"]);

    // A Gregorian timeline takes natural forms too.
    const plain = await createTimeline(owner.token, { title: "Modern" });
    const dated = await createEvent(owner.token, plain.id, { title: "Call", storyStart: "13 Oct 2031 9am" });
    expect(dated).toMatchObject({ storyStart: "2031-10-13T09:00", storyStartDisplay: "13 October 2031, 9:00" });
  });

  it("a change of structure previews the moved scenes (409), then converts them keeping what was typed; names apply at once", async () => {
    const { owner, viewer, timelineId } = await reckoning();
    await put(owner.token, timelineId, FANTASY);
    const scene = await createEvent(owner.token, timelineId, { title: "The siege", storyStart: "14 Sunmoon 1203 AR" });

    const renamed = { ...FANTASY, months: FANTASY.months.map((m, i) => (i === 0 ? { ...m, name: "Icemoon" } : m)) };
    expect((await put(owner.token, timelineId, renamed)).status).toBe(200);
    expect((await eventOf(viewer.token, timelineId, scene.id)).storyStartDisplay).toBe("14 Sunmoon 1203 AR");

    const reshaped = { ...renamed, months: [{ name: "Sunmoon", days: 40 }, ...renamed.months.slice(0, 2)] };
    const preview = await put(owner.token, timelineId, reshaped);
    expect(preview.status).toBe(409);
    expect(preview.json).toMatchObject({
      message: "Changing the calendar moves 1 dated scene",
      changes: [{ eventId: scene.id, title: "The siege", before: "14 Sunmoon 1203 AR", after: "14 Sunmoon 1203 AR" }],
    });
    expect((await call("GET", `/api/timelines/${timelineId}/calendar`, { token: owner.token })).json).toEqual(renamed);

    const done = await put(owner.token, timelineId, { ...reshaped, convert: true });
    expect(done.status, done.text).toBe(200);
    const after = await eventOf(owner.token, timelineId, scene.id);
    expect(after).toMatchObject({ storyStart: "1203-01-14", storyStartDisplay: "14 Sunmoon 1203 AR" });
  });

  it("the preview names characters' born and died dates too, and converting moves them with the scenes", async () => {
    const { owner, timelineId } = await reckoning();
    await put(owner.token, timelineId, FANTASY);
    const entities = `/api/timelines/${timelineId}/entities`;
    const mara = await call("POST", entities, {
      token: owner.token,
      body: { kind: "character", name: "Mara", born: "3 Frostmoon 1185 AR", died: "Sunmoon 1250 AR" },
    });
    expect(mara.status, mara.text).toBe(201);
    await call("POST", entities, { token: owner.token, body: { kind: "character", name: "Nobody" } });

    // Only a lifespan to move: still a preview, never a silent conversion.
    const reshaped = { ...FANTASY, months: [{ name: "Greenmoon", days: 40 }, ...FANTASY.months] };
    const alone = await put(owner.token, timelineId, reshaped);
    expect(alone).toMatchObject({ status: 409, json: { message: "Changing the calendar moves 2 born or died dates", changes: [] } });

    const scene = await createEvent(owner.token, timelineId, { title: "The siege", storyStart: "14 Sunmoon 1203 AR" });
    const preview = await put(owner.token, timelineId, reshaped);
    expect(preview.status).toBe(409);
    expect(preview.json).toEqual({
      error: "Changing the calendar moves 1 dated scene and 2 born or died dates",
      message: "Changing the calendar moves 1 dated scene and 2 born or died dates",
      changes: [{ eventId: scene.id, title: "The siege", before: "14 Sunmoon 1203 AR", after: "14 Sunmoon 1203 AR" }],
      lifespans: [
        { entityId: mara.json.id, name: "Mara", field: "born", before: "3 Frostmoon 1185 AR", after: "3 Frostmoon 1185 AR" },
        { entityId: mara.json.id, name: "Mara", field: "died", before: "Sunmoon 1250 AR", after: "Sunmoon 1250 AR" },
      ],
    });
    const unchanged = (await call("GET", entities, { token: owner.token })).json.find((e: { id: number }) => e.id === mara.json.id);
    expect(unchanged).toMatchObject({ born: "1185-01-03", died: "1250-03" });

    expect((await put(owner.token, timelineId, { ...reshaped, convert: true })).status).toBe(200);
    const moved = (await call("GET", entities, { token: owner.token })).json.find((e: { id: number }) => e.id === mara.json.id);
    expect(moved).toMatchObject({ born: "1185-02-03", died: "1250-04" });
    expect(await eventOf(owner.token, timelineId, scene.id)).toMatchObject({ storyStart: "1203-04-14" });
  });

  it("export carries the calendar and import brings it back with the dates in its words", async () => {
    const { owner, timelineId } = await reckoning();
    await put(owner.token, timelineId, FANTASY);
    await createEvent(owner.token, timelineId, { title: "The siege", storyStart: "30 Thawmoon 1203 AR" });
    const exported = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token: owner.token });
    expect(exported.json.calendar).toEqual(FANTASY);
    expect(exported.json.events[0].storyStart).toBe("1203-02-30");
    const imported = await importBook(owner.token, exported.text, "application/json");
    expect(imported.status, imported.text).toBe(201);
    const id = imported.json.id ?? imported.json.timeline?.id;
    expect((await call("GET", `/api/timelines/${id}/calendar`, { token: owner.token })).json).toEqual(FANTASY);
    const events = (await call("GET", `/api/timelines/${id}/events`, { token: owner.token })).json;
    expect(events[0].storyStartDisplay).toBe("30 Thawmoon 1203 AR");

    const broken = JSON.parse(exported.text);
    broken.calendar = { kind: "custom", months: [] };
    const refused = await importBook(owner.token, JSON.stringify(broken), "application/json");
    expect(refused).toMatchObject({ status: 400, json: { error: "Calendar: A calendar needs at least one month" } });
  });
});
