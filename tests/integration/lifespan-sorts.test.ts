import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PRESETS, parseMachine, storySort, toAbsolute } from "../../db/domain/calendar";
import { call, createTimeline, importBook, registerUser } from "./helpers";

const MOONS = PRESETS.thirteen.calendar;

type Sorts = { id: number; name: string; born: string | null; died: string | null; born_sort: number | null; died_sort: number | null };
const sortsOf = async (timelineId: number) =>
  (
    await env.DB.prepare("SELECT id, name, born, died, born_sort, died_sort FROM entities WHERE timeline_id = ? ORDER BY name")
      .bind(timelineId)
      .all<Sorts>()
  ).results;

/** Olive's new timeline `title`, in the 13 × 28 days calendar. */
async function moonsTimeline(title: string) {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title });
  expect((await call("PUT", `/api/timelines/${timeline.id}/calendar`, { token: owner.token, body: MOONS })).status).toBe(200);
  return { owner, timeline };
}

/** Mara in the timeline's codex, born and died as typed. */
async function addMara(token: string, timelineId: number, born: string, died: string) {
  const made = await call("POST", `/api/timelines/${timelineId}/entities`, {
    token,
    body: { kind: "character", name: "Mara", born, died },
  });
  expect(made.status, made.text).toBe(201);
  return made;
}

/** The timeline exported as JSON and the file imported as a new timeline: the copy's first entity's sort keys. */
async function copiedThroughJson(token: string, timelineId: number) {
  const file = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token });
  expect(file.status).toBe(200);
  const imported = await importBook(token, file.text, "application/json");
  expect(imported.status, imported.text).toBe(201);
  const [copy] = await sortsOf(imported.json.id);
  return copy;
}

describe("born and died sort keys", () => {
  it("are the timeline calendar's, whether the codex or an import wrote them, and move with a change of calendar", async () => {
    const { owner, timeline } = await moonsTimeline("The Reckoning");
    const made = await addMara(owner.token, timeline.id, "1180-02-03", "1250");
    const [mara] = await sortsOf(timeline.id);
    // The absolute minute in the 13 × 28 calendar (the scenes' keys), not a Gregorian key.
    expect(mara.born_sort).toBe(toAbsolute(MOONS, { year: 1180, month: 2, day: 3 }));
    expect(mara.born_sort).toBe(storySort(MOONS, "1180-02-03"));
    expect(mara.died_sort).toBe(storySort(MOONS, "1250"));

    expect((await call("PATCH", `/api/entities/${made.json.id}`, { token: owner.token, body: { born: "1181-12-28" } })).status).toBe(200);
    const [patched] = await sortsOf(timeline.id);
    expect(patched.born_sort).toBe(storySort(MOONS, "1181-12-28"));

    // Exported and imported: the same keys as the codex wrote.
    const copy = await copiedThroughJson(owner.token, timeline.id);
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
    const { owner, timeline } = await moonsTimeline("Moons");
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
    const { owner, timeline } = await moonsTimeline("The Moons");
    const made = await addMara(owner.token, timeline.id, "20 Darkmoon 1185 AR", "1250-13-02");
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
    const copy = await copiedThroughJson(owner.token, timeline.id);
    expect({ born: copy.born, born_sort: copy.born_sort }).toEqual({ born: "1185-13-20", born_sort: still.born_sort });
  });
});
