import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
const dateOf = (iso: string) => iso.slice(0, 10);

/** A saved version as history keeps it (word_count left empty: the progress counts it). */
async function version(eventId: number, timelineId: number, author: { id: number; name: string }, content: string, at: string) {
  await env.DB.prepare(
    "INSERT INTO event_versions (event_id, timeline_id, author_id, author_name, title, content, created_at) VALUES (?, ?, ?, ?, 'v', ?, ?)",
  )
    .bind(eventId, timelineId, author.id, author.name, content, at)
    .run();
}

describe("progress", () => {
  it("net words per day from versions, per writer on request, with the reader's goal and streak", async () => {
    const owner = await registerUser({ name: "Olive Owner" });
    const collab = await registerUser({ name: "Cara" });
    const viewer = await registerUser({ name: "Vic" });
    const outsider = await registerUser({ name: "Otto" });
    const timeline = await createTimeline(owner.token, { title: "Book" });
    await shareWith(timeline.id, owner.user.id, collab.user.id, "collaborator");
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    // Today: the owner writes 6 words, Cara adds 4.
    const scene = await createEvent(owner.token, timeline.id, { title: "Storm", content: "The storm breaks over the harbour." });
    const edit = await call("PATCH", `/api/events/${scene.id}`, {
      token: collab.token,
      body: { content: "The storm breaks over the harbour. Mara runs for boats." },
    });
    expect(edit.status).toBe(200);
    // Forty days ago (outside the window) an older scene had 2 words; two days ago the owner made it 8, yesterday cut 3.
    const old = await createEvent(owner.token, timeline.id, { title: "Old", content: "one two three four five" });
    await env.DB.prepare("DELETE FROM event_versions WHERE event_id = ?").bind(old.id).run();
    const me = { id: owner.user.id, name: "Olive Owner" };
    await version(old.id, timeline.id, me, "far back", daysAgo(40));
    await version(old.id, timeline.id, me, "one two three four five six seven eight", daysAgo(2));
    await version(old.id, timeline.id, me, "one two three four five", daysAgo(1));

    const path = `/api/timelines/${timeline.id}/progress`;
    const res = await call("GET", path, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    const p = res.json;
    expect(p).toMatchObject({ wordCount: 15, targetWords: null, dailyGoal: null, streak: 0 });
    expect(p.days).toHaveLength(30);
    expect(p.days.at(-1)).toEqual({ date: dateOf(daysAgo(0)), words: 10 });
    expect(p.days.at(-2)).toEqual({ date: dateOf(daysAgo(1)), words: -3 });
    expect(p.days.at(-3)).toEqual({ date: dateOf(daysAgo(2)), words: 6 });
    expect(p.days.slice(0, -3).every((d: { words: number }) => d.words === 0)).toBe(true);
    expect(p).not.toHaveProperty("writers");

    const by = (await call("GET", `${path}?by=writer`, { token: viewer.token })).json;
    const words = (userId: number) =>
      by.writers
        .find((w: { userId: number }) => w.userId === userId)
        .days.slice(-3)
        .map((d: { words: number }) => d.words);
    expect(words(owner.user.id)).toEqual([6, -3, 6]);
    expect(words(collab.user.id)).toEqual([0, 0, 4]);
    expect(by.writers.find((w: { userId: number }) => w.userId === collab.user.id).name).toBe("Cara");

    // A daily goal of 5: today (6) and two days ago (6) meet it, yesterday (-3) does not.
    const goal = await call("PATCH", "/api/account", { token: owner.token, body: { dailyGoalWords: 5 } });
    expect(goal.json).toMatchObject({ dailyGoalWords: 5, name: "Olive Owner" });
    expect((await call("GET", path, { token: owner.token })).json).toMatchObject({ dailyGoal: 5, streak: 1 });
    await version(old.id, timeline.id, me, "one two three four five six seven eight nine ten eleven twelve thirteen", daysAgo(1));
    expect((await call("GET", path, { token: owner.token })).json).toMatchObject({ streak: 3 });
    // Cara has no goal: no streak.
    expect((await call("GET", path, { token: collab.token })).json).toMatchObject({ dailyGoal: null, streak: 0 });

    expect(await call("GET", path, { token: outsider.token })).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
    expect((await call("GET", path)).status).toBe(401);
    expect(await call("GET", `${path}?by=chapter`, { token: owner.token })).toMatchObject({
      status: 400,
      json: { error: "By must be writer" },
    });
  });

  it("?tz= counts days from the writer's midnight; a zone that is not one is refused", async () => {
    const owner = await registerUser({ name: "Tia Tokyo" });
    const timeline = await createTimeline(owner.token, { title: "Night owl" });
    const scene = await createEvent(owner.token, timeline.id, { title: "Late", content: "x" });
    await env.DB.prepare("DELETE FROM event_versions WHERE event_id = ?").bind(scene.id).run();
    // 23:00 UTC yesterday: yesterday in UTC, already today (08:00) in Tokyo.
    const midnight = new Date(`${dateOf(daysAgo(0))}T00:00:00.000Z`).getTime();
    const at = new Date(midnight - 3600_000).toISOString();
    await version(scene.id, timeline.id, { id: owner.user.id, name: "Tia Tokyo" }, "four words written late", at);
    const path = `/api/timelines/${timeline.id}/progress`;
    const words = (days: { date: string; words: number }[], date: string) => days.find((d) => d.date === date)?.words;
    const utc = (await call("GET", path, { token: owner.token })).json;
    expect(words(utc.days, dateOf(at))).toBe(4);
    const tokyo = await call("GET", `${path}?tz=Asia/Tokyo`, { token: owner.token });
    expect(tokyo.status, tokyo.text).toBe(200);
    const tokyoDate = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Tokyo" }).format(new Date(at));
    expect(tokyoDate).toBe(dateOf(daysAgo(0)));
    expect(words(tokyo.json.days, tokyoDate)).toBe(4);
    expect(words(tokyo.json.days, dateOf(at))).toBe(0);
    // Today is Tokyo's today.
    expect(tokyo.json.days.at(-1).date).toBe(new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Tokyo" }).format(new Date()));
    for (const bad of ["Mars/Olympus", "", "x".repeat(80), "Europe/Paris; DROP TABLE"]) {
      expect(await call("GET", `${path}?tz=${encodeURIComponent(bad)}`, { token: owner.token })).toMatchObject({
        status: 400,
        json: { error: "Time zone must be an IANA time zone such as Europe/Paris" },
      });
    }
  });

  it("a daily goal is a positive whole number or null", async () => {
    const writer = await registerUser();
    const patch = (body: unknown) => call("PATCH", "/api/account", { token: writer.token, body });
    expect((await patch({ dailyGoalWords: 0 })).status).toBe(400);
    expect((await patch({ dailyGoalWords: 2.5 })).status).toBe(400);
    expect((await patch({ dailyGoalWords: "500" })).json.error).toMatch(/^Daily goal must be/);
    expect((await patch({ dailyGoalWords: 500 })).json.dailyGoalWords).toBe(500);
    expect((await patch({ dailyGoalWords: null })).json.dailyGoalWords).toBeNull();
    expect((await patch({ name: "Renamed Writer" })).json).toMatchObject({ name: "Renamed Writer", dailyGoalWords: null });
    expect(await patch({})).toMatchObject({ status: 400, json: { error: "Name must be at least 2 characters" } });
  });
});
