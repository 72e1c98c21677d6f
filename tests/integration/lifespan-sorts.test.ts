import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PRESETS, parseMachine, storySort, toAbsolute } from "../../db/domain/calendar";
import { call, createTimeline, registerUser } from "./helpers";

const MOONS = PRESETS.thirteen.calendar;

type Sorts = { id: number; name: string; born: string | null; died: string | null; born_sort: number | null; died_sort: number | null };
const sortsOf = async (timelineId: number) =>
  (
    await env.DB.prepare("SELECT id, name, born, died, born_sort, died_sort FROM entities WHERE timeline_id = ? ORDER BY name")
      .bind(timelineId)
      .all<Sorts>()
  ).results;

describe("born and died sort keys", () => {
  it("are the timeline calendar's, whether the codex or an import wrote them, and move with a change of calendar", async () => {
    const owner = await registerUser({ name: "Olive Owner" });
    const timeline = await createTimeline(owner.token, { title: "The Reckoning" });
    expect((await call("PUT", `/api/timelines/${timeline.id}/calendar`, { token: owner.token, body: MOONS })).status).toBe(200);

    const path = `/api/timelines/${timeline.id}/entities`;
    const made = await call("POST", path, {
      token: owner.token,
      body: { kind: "character", name: "Mara", born: "1180-02-03", died: "1250" },
    });
    expect(made.status, made.text).toBe(201);
    const [mara] = await sortsOf(timeline.id);
    // The absolute minute in the 13 × 28 calendar (the scenes' keys), not a Gregorian key.
    expect(mara.born_sort).toBe(toAbsolute(MOONS, { year: 1180, month: 2, day: 3 }));
    expect(mara.born_sort).toBe(storySort(MOONS, "1180-02-03"));
    expect(mara.died_sort).toBe(storySort(MOONS, "1250"));

    expect((await call("PATCH", `/api/entities/${made.json.id}`, { token: owner.token, body: { born: "1181-12-28" } })).status).toBe(200);
    const [patched] = await sortsOf(timeline.id);
    expect(patched.born_sort).toBe(storySort(MOONS, "1181-12-28"));

    // Exported and imported: the same keys as the codex wrote.
    const file = await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token });
    expect(file.status).toBe(200);
    const imported = await call("POST", "/api/timelines/import", {
      token: owner.token,
      rawBody: file.text,
      headers: { "Content-Type": "application/json" },
    });
    expect(imported.status, imported.text).toBe(201);
    const [copy] = await sortsOf(imported.json.id);
    expect({ born: copy.born, born_sort: copy.born_sort, died_sort: copy.died_sort }).toEqual({
      born: patched.born,
      born_sort: patched.born_sort,
      died_sort: patched.died_sort,
    });

    // Back to Gregorian (after the preview): the lifespan moves to the same moments, sorted as Gregorian dates are.
    const back = { ...PRESETS.gregorian.calendar, convert: true };
    expect((await call("PUT", `/api/timelines/${timeline.id}/calendar`, { token: owner.token, body: back })).status).toBe(200);
    const [moved] = await sortsOf(timeline.id);
    const gregorian = PRESETS.gregorian.calendar;
    const bornThen = parseMachine(gregorian, moved.born ?? "");
    expect(bornThen.ok && toAbsolute(gregorian, bornThen.date)).toBe(toAbsolute(MOONS, { year: 1181, month: 12, day: 28 }));
    expect(moved.born_sort).toBe(storySort(gregorian, moved.born));
    expect(moved.died_sort).toBe(storySort(gregorian, moved.died));
  });
});

describe("the map's scenes", () => {
  it("carry their story time in the calendar's words (or their label); undated ones none", async () => {
    const owner = await registerUser({ name: "Olive Owner" });
    const timeline = await createTimeline(owner.token, { title: "Moons" });
    expect((await call("PUT", `/api/timelines/${timeline.id}/calendar`, { token: owner.token, body: MOONS })).status).toBe(200);
    const post = (body: Record<string, unknown>) =>
      call("POST", `/api/timelines/${timeline.id}/events`, { token: owner.token, body: { content: "x", ...body } });
    await post({ title: "Siege", storyStart: "14 Frostmoon 1203 AR, 9:00" });
    await post({ title: "Feast", storyStart: "1203-02", storyLabel: "The long night" });
    await post({ title: "Undated" });
    const map = await call("GET", `/api/timelines/${timeline.id}/map`, { token: owner.token });
    expect(map.status).toBe(200);
    const when = Object.fromEntries(
      (map.json.nodes as Array<{ kind: string; label: string; when?: string }>)
        .filter((n) => n.kind === "event")
        .map((n) => [n.label, n.when]),
    );
    expect(when).toEqual({ Siege: "14 Frostmoon 1203 AR, 9:00", Feast: "The long night", Undated: undefined });
  });

  it("are typed in the calendar's words, 13th month included, and refused with an example in that calendar", async () => {
    const owner = await registerUser({ name: "Olive Owner" });
    const timeline = await createTimeline(owner.token, { title: "The Moons" });
    expect((await call("PUT", `/api/timelines/${timeline.id}/calendar`, { token: owner.token, body: MOONS })).status).toBe(200);
    const path = `/api/timelines/${timeline.id}/entities`;
    const made = await call("POST", path, {
      token: owner.token,
      body: { kind: "character", name: "Mara", born: "20 Darkmoon 1185 AR", died: "1250-13-02" },
    });
    expect(made.status, made.text).toBe(201);
    expect({ born: made.json.born, died: made.json.died }).toEqual({ born: "1185-13-20", died: "1250-13-02" });
    const [mara] = await sortsOf(timeline.id);
    expect(mara.born_sort).toBe(storySort(MOONS, "1185-13-20"));

    const bad = await call("PATCH", `/api/entities/${made.json.id}`, { token: owner.token, body: { born: "the 45th of Nevuary" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/^Born must be a date like .*(AR|BR)/);
    const huge = await call("PATCH", `/api/entities/${made.json.id}`, { token: owner.token, body: { born: "x".repeat(300) } });
    expect({ status: huge.status, error: huge.json.error }).toEqual({ status: 400, error: "Born can be at most 100 characters" });
    const before = await call("PATCH", `/api/entities/${made.json.id}`, { token: owner.token, body: { died: "3 Frostmoon 1180 AR" } });
    expect(before.status).toBe(400);
    expect(before.json.error).toBe("Died must come after Born");
    // Nothing refused was written.
    const [still] = await sortsOf(timeline.id);
    expect({ born: still.born, died: still.died }).toEqual({ born: "1185-13-20", died: "1250-13-02" });
    // And a 13th-month birth travels through the JSON export and back.
    const file = await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token });
    const imported = await call("POST", "/api/timelines/import", {
      token: owner.token,
      rawBody: file.text,
      headers: { "Content-Type": "application/json" },
    });
    expect(imported.status, imported.text).toBe(201);
    const [copy] = await sortsOf(imported.json.id);
    expect({ born: copy.born, born_sort: copy.born_sort }).toEqual({ born: "1185-13-20", born_sort: still.born_sort });
  });
});
