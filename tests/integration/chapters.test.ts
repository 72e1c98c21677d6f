import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, premiumOwnerWithTimeline, registerUser, shareWith } from "./helpers";

import type { EventView as Ev } from "../../worker/services/event-list";

async function story(titles: string[]) {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title: "The Long Book" });
  const ids: Record<string, number> = {};
  for (const title of titles) ids[title] = (await createEvent(owner.token, timeline.id, { title })).id;
  return { owner, timelineId: timeline.id as number, ids };
}

const addChapter = async (token: string, timelineId: number, body: Record<string, unknown>) => {
  const res = await call("POST", `/api/timelines/${timelineId}/chapters`, { token, body });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: number; title: string; position: number };
};

/** The story order as [title, chapter title or null], and a check that it is one order 0..n-1 with chapters contiguous. */
async function order(token: string, timelineId: number) {
  const events = (await call("GET", `/api/timelines/${timelineId}/events`, { token })).json as Ev[];
  const chapters = (await call("GET", `/api/timelines/${timelineId}/chapters`, { token })).json as { id: number; title: string }[];
  expect(events.map((e) => e.position)).toEqual(events.map((_, i) => i));
  const name = new Map(chapters.map((c) => [c.id, c.title]));
  const blocks = events.map((e) => e.chapterId).filter((c, i, all) => c !== null && c !== all[i - 1]);
  expect(new Set(blocks).size, "each chapter's scenes are contiguous").toBe(blocks.length);
  const rank = new Map(chapters.map((c, i) => [c.id, i]));
  expect(blocks.map((b) => rank.get(b as number))).toEqual([...blocks.map((b) => rank.get(b as number))].sort());
  return events.map((e) => [e.title, e.chapterId === null ? null : name.get(e.chapterId)]);
}

describe("chapters", () => {
  it("answers each role as the events list does", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser({ name: "Cara" });
    const viewer = await registerUser({ name: "Vic" });
    const linkUser = await registerUser({ name: "Lin" });
    const outsider = await registerUser({ name: "Otto" });
    await shareWith(timelineId, owner.user.id, collab.user.id, "collaborator");
    await shareWith(timelineId, owner.user.id, viewer.user.id, "viewer");
    const link = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } });
    expect(link.status, link.text).toBe(200);
    const code = link.json.shareCode;
    const path = `/api/timelines/${timelineId}/chapters`;

    const one = await addChapter(owner.token, timelineId, { title: "  One  ", targetWords: 3000 });
    expect(one).toMatchObject({ timelineId, title: "One", position: 0, targetWords: 3000, wordCount: 0 });
    const two = await addChapter(collab.token, timelineId, { title: "Two" });
    expect(two).toMatchObject({ position: 1, targetWords: null });

    for (const token of [owner.token, collab.token, viewer.token]) {
      const res = await call("GET", path, { token });
      expect(res.status).toBe(200);
      expect(res.json.map((c: { title: string }) => c.title)).toEqual(["One", "Two"]);
    }
    expect((await call("GET", `${path}?share=${code}`, { token: linkUser.token })).json).toHaveLength(2);
    expect(await call("GET", path, { token: outsider.token })).toMatchObject({ status: 404, json: { error: "Timeline not found" } });
    expect((await call("GET", path)).status).toBe(401);
    expect((await call("POST", path, { body: { title: "X" } })).status).toBe(401);

    // Writes: viewers and link viewers are refused, strangers learn nothing.
    expect(await call("POST", path, { token: viewer.token, body: { title: "X" } })).toMatchObject({ status: 403 });
    expect((await call("POST", `${path}?share=${code}`, { token: linkUser.token, body: { title: "X" } })).status).toBe(403);
    expect((await call("POST", path, { token: outsider.token, body: { title: "X" } })).status).toBe(404);
    expect((await call("PATCH", `/api/chapters/${one.id}`, { token: viewer.token, body: { title: "X" } })).status).toBe(403);
    expect(await call("PATCH", `/api/chapters/${one.id}`, { token: outsider.token, body: { title: "X" } })).toMatchObject({
      status: 404,
      json: { error: "Chapter not found" },
    });
    const renamed = await call("PATCH", `/api/chapters/${one.id}`, { token: collab.token, body: { title: "Opening", targetWords: null } });
    expect(renamed.json).toMatchObject({ title: "Opening", targetWords: null });

    // Deleting: owner only.
    expect(await call("DELETE", `/api/chapters/${two.id}`, { token: collab.token })).toMatchObject({
      status: 403,
      json: { error: "Only the owner of this timeline can do that" },
    });
    expect((await call("DELETE", `/api/chapters/${two.id}`, { token: outsider.token })).status).toBe(404);
    expect((await call("DELETE", `/api/chapters/${two.id}`, { token: owner.token })).status).toBe(200);
    expect((await call("GET", path, { token: owner.token })).json.map((c: { title: string }) => c.title)).toEqual(["Opening"]);
  });

  it("refuses bad titles, targets and ids with clear messages", async () => {
    const { owner, timelineId } = await story(["A"]);
    const path = `/api/timelines/${timelineId}/chapters`;
    const post = (body: unknown) => call("POST", path, { token: owner.token, body });
    expect(await post({ title: "   " })).toMatchObject({ status: 400, json: { error: "Chapter title is required" } });
    expect(await post({})).toMatchObject({ status: 400, json: { error: "Chapter title is required" } });
    expect(await post({ title: "x".repeat(201) })).toMatchObject({
      status: 400,
      json: { error: "Chapter title must be 200 characters or less" },
    });
    expect((await post({ title: "x".repeat(200) })).status).toBe(201);
    expect(await post({ title: "T", targetWords: 1.5 })).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/^Target must be/) },
    });
    expect((await post({ title: "T", targetWords: 0 })).status).toBe(400);
    expect((await post({ title: "T", targetWords: 10_000_001 })).status).toBe(400);
    expect((await post({ title: "T", eventIds: ["1"] })).status).toBe(400);
    expect(await post({ title: "T", eventIds: [999_999_999] })).toMatchObject({
      status: 400,
      json: { error: "Scenes must belong to this timeline" },
    });
    expect((await call("PATCH", "/api/chapters/abc", { token: owner.token, body: { title: "X" } })).status).toBe(404);
    expect((await call("PATCH", "/api/chapters/1.5", { token: owner.token, body: { title: "X" } })).status).toBe(404);
    expect((await call("GET", "/api/timelines/-1/chapters", { token: owner.token })).status).toBe(404);
    const huge = await call("POST", path, { token: owner.token, rawBody: JSON.stringify({ title: "x".repeat(1_100_000) }) });
    expect(huge).toMatchObject({ status: 413, json: { error: "Request body is too large" } });
    expect(await call("POST", path, { token: owner.token, rawBody: "{not json" })).toMatchObject({ status: 400 });
  });

  it("a body that is not an object (string, number, array) is answered in the product's words", async () => {
    const { owner, timelineId } = await story(["A"]);
    const chapter = await addChapter(owner.token, timelineId, { title: "One" });
    for (const body of ["abc", 42, [1, 2], true]) {
      const post = await call("POST", `/api/timelines/${timelineId}/chapters`, { token: owner.token, body });
      expect(post).toMatchObject({ status: 400, json: { error: "Chapter title is required" } });
      const patch = await call("PATCH", `/api/chapters/${chapter.id}`, { token: owner.token, body });
      expect(patch).toMatchObject({ status: 400, json: { error: "Nothing to update" } });
    }
    // Other writes too: the first rule an empty body breaks.
    const events = await call("POST", `/api/timelines/${timelineId}/events`, { token: owner.token, body: "abc" });
    expect(events).toMatchObject({ status: 400, json: { error: "Please fill in both title and content" } });
    // A write an empty body would pass is told what it needs.
    const timeline = await call("PATCH", `/api/timelines/${timelineId}`, { token: owner.token, body: [1] });
    expect(timeline).toMatchObject({ status: 400, json: { error: "Request body must be a JSON object" } });
  });

  it("moves scenes into and out of chapters in one contiguous story order", async () => {
    const { owner, timelineId, ids } = await story(["a", "b", "c", "d", "e"]);
    const t = owner.token;
    const one = await addChapter(t, timelineId, { title: "One", eventIds: [ids.a, ids.b] });
    const two = await addChapter(t, timelineId, { title: "Two" });
    expect(await order(t, timelineId)).toEqual([
      ["c", null],
      ["d", null],
      ["e", null],
      ["a", "One"],
      ["b", "One"],
    ]);
    // Into an empty chapter: after the last scene of the chapter before it.
    const moved = await call("PATCH", `/api/events/${ids.c}`, { token: t, body: { chapterId: two.id } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json).toMatchObject({ chapterId: two.id, position: 4 });
    // Into a chapter at a place inside its range.
    await call("PATCH", `/api/events/${ids.e}`, { token: t, body: { chapterId: one.id, position: 0 } });
    expect(await order(t, timelineId)).toEqual([
      ["d", null],
      ["e", "One"],
      ["a", "One"],
      ["b", "One"],
      ["c", "Two"],
    ]);
    // A scene dropped among another chapter's scenes joins that chapter.
    await call("PATCH", `/api/events/${ids.c}`, { token: t, body: { position: 2 } });
    expect(await order(t, timelineId)).toEqual([
      ["d", null],
      ["e", "One"],
      ["c", "One"],
      ["a", "One"],
      ["b", "One"],
    ]);
    // A scene dropped at the edge of its own chapter keeps it.
    await call("PATCH", `/api/events/${ids.b}`, { token: t, body: { position: 1 } });
    expect((await order(t, timelineId))[1]).toEqual(["b", "One"]);
    // Out of a chapter: right after its remaining scenes.
    await call("PATCH", `/api/events/${ids.b}`, { token: t, body: { chapterId: null } });
    expect(await order(t, timelineId)).toEqual([
      ["d", null],
      ["e", "One"],
      ["c", "One"],
      ["a", "One"],
      ["b", null],
    ]);
    // A new scene straight into a chapter goes to its end.
    const f = await createEvent(t, timelineId, { title: "f", chapterId: one.id });
    expect(f).toMatchObject({ chapterId: one.id, position: 4 });
  });

  it("refuses a chapter of another timeline or a missing one", async () => {
    const { owner, timelineId, ids } = await story(["a"]);
    const other = await createTimeline(owner.token, { title: "Other" });
    const foreign = await addChapter(owner.token, other.id, { title: "Elsewhere" });
    for (const chapterId of [foreign.id, 999_999_999]) {
      expect(await call("PATCH", `/api/events/${ids.a}`, { token: owner.token, body: { chapterId } })).toMatchObject({
        status: 400,
        json: { error: "Chapter must belong to this timeline" },
      });
    }
    expect(await call("PATCH", `/api/events/${ids.a}`, { token: owner.token, body: { chapterId: "1" } })).toMatchObject({
      status: 400,
      json: { error: "Chapter must be a chapter id or null" },
    });
    const post = await call("POST", `/api/timelines/${timelineId}/events`, {
      token: owner.token,
      body: { title: "x", content: "y", chapterId: foreign.id },
    });
    expect(post).toMatchObject({ status: 400, json: { error: "Chapter must belong to this timeline" } });
  });

  it("many moves at once keep one story order: chapters contiguous, positions a permutation", async () => {
    const titles = Array.from({ length: 14 }, (_, i) => `s${i}`);
    const { owner, timelineId, ids } = await story(titles);
    const t = owner.token;
    const chapters: { id: number }[] = [];
    for (let c = 0; c < 5; c++) {
      chapters.push(await addChapter(t, timelineId, { title: `C${c}`, eventIds: [ids[`s${2 * c}`], ids[`s${2 * c + 1}`]] }));
    }
    // Moves of chapters and of scenes between chapters, all in flight together.
    const moves = Array.from({ length: 24 }, (_, i) =>
      i % 3 === 2
        ? call("PATCH", `/api/events/${ids[`s${i % 14}`]}`, { token: t, body: { chapterId: chapters[(i * 7) % 5].id } })
        : call("PATCH", `/api/chapters/${chapters[(i * 3) % 5].id}`, { token: t, body: { position: (i * 2) % 5 } }),
    );
    for (const res of await Promise.all(moves)) expect(res.status, res.text).toBe(200);
    await order(t, timelineId);
    const after = (await call("GET", `/api/timelines/${timelineId}/chapters`, { token: t })).json as { position: number }[];
    expect(after.map((c) => c.position)).toEqual([0, 1, 2, 3, 4]);
    // Deletes racing moves close the gap all the same.
    const racing = [
      call("DELETE", `/api/chapters/${chapters[1].id}`, { token: t }),
      call("PATCH", `/api/chapters/${chapters[3].id}`, { token: t, body: { position: 0 } }),
      call("DELETE", `/api/chapters/${chapters[4].id}`, { token: t }),
      call("PATCH", `/api/chapters/${chapters[0].id}`, { token: t, body: { position: 2 } }),
    ];
    for (const res of await Promise.all(racing)) expect(res.status, res.text).toBe(200);
    await order(t, timelineId);
    const left = (await call("GET", `/api/timelines/${timelineId}/chapters`, { token: t })).json as { position: number }[];
    expect(left.map((c) => c.position)).toEqual([0, 1, 2]);
  });

  it("reordering a chapter moves its scenes; deleting one keeps them", async () => {
    const { owner, timelineId, ids } = await story(["a", "b", "c", "d"]);
    const t = owner.token;
    const one = await addChapter(t, timelineId, { title: "One", eventIds: [ids.a] });
    const two = await addChapter(t, timelineId, { title: "Two", eventIds: [ids.b, ids.c] });
    expect(await order(t, timelineId)).toEqual([
      ["d", null],
      ["a", "One"],
      ["b", "Two"],
      ["c", "Two"],
    ]);
    const res = await call("PATCH", `/api/chapters/${two.id}`, { token: t, body: { position: 0 } });
    expect(res.json).toMatchObject({ position: 0 });
    expect(await order(t, timelineId)).toEqual([
      ["d", null],
      ["b", "Two"],
      ["c", "Two"],
      ["a", "One"],
    ]);
    expect((await call("GET", `/api/timelines/${timelineId}/chapters`, { token: t })).json.map((c: { id: number }) => c.id)).toEqual([
      two.id,
      one.id,
    ]);
    await call("PATCH", `/api/events/${ids.b}`, { token: t, body: { content: "Rewritten text of b" } });
    expect((await call("DELETE", `/api/chapters/${two.id}`, { token: t })).status).toBe(200);
    expect(await order(t, timelineId)).toEqual([
      ["d", null],
      ["b", null],
      ["c", null],
      ["a", "One"],
    ]);
    const b = (await call("GET", `/api/timelines/${timelineId}/events`, { token: t })).json.find((e: Ev) => e.id === ids.b);
    expect(b).toMatchObject({ content: "Rewritten text of b", chapterId: null });
    const left = (await call("GET", `/api/timelines/${timelineId}/chapters`, { token: t })).json;
    expect(left).toEqual([expect.objectContaining({ id: one.id, position: 0 })]);
  });
});

describe("word counts", () => {
  it("counts English, Japanese and mixed text on the server, per scene, chapter and timeline", async () => {
    const { owner, timelineId } = await story([]);
    const t = owner.token;
    const en = await createEvent(t, timelineId, { title: "en", content: "The storm breaks over the harbour." });
    expect(en.wordCount).toBe(6);
    const ja = await createEvent(t, timelineId, { title: "ja", content: "猫が好きです。" });
    expect(ja.wordCount).toBe(6);
    const chapter = await addChapter(t, timelineId, { title: "One", eventIds: [en.id, ja.id] });
    const patched = await call("PATCH", `/api/events/${ja.id}`, { token: t, body: { content: "**Mara** runs 東京へ。" } });
    // Mara, runs, 東, 京, へ: Markdown marks and punctuation are no words.
    expect(patched.json.wordCount).toBe(5);
    const listed = (await call("GET", `/api/timelines/${timelineId}/events`, { token: t })).json as Ev[];
    expect(listed.map((e) => e.wordCount)).toEqual([6, 5]);
    const chapters = (await call("GET", `/api/timelines/${timelineId}/chapters`, { token: t })).json;
    expect(chapters).toEqual([expect.objectContaining({ id: chapter.id, wordCount: 11 })]);
    const timeline = (await call("GET", `/api/timelines/${timelineId}`, { token: t })).json;
    expect(timeline).toMatchObject({ wordCount: 11, targetWords: null });
    const listedTimelines = (await call("GET", "/api/timelines", { token: t })).json;
    expect(listedTimelines.find((x: { id: number }) => x.id === timelineId)).toMatchObject({ wordCount: 11 });
    // Restoring the first version counts its words again.
    const versions = (await call("GET", `/api/events/${ja.id}/versions`, { token: t })).json;
    const firstVersion = versions.at(-1);
    const restored = await call("POST", `/api/event-versions/${firstVersion.id}/restore`, { token: t });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json).toMatchObject({ content: "猫が好きです。", wordCount: 6 });
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: t })).json.wordCount).toBe(12);
  });

  it("counts old rows (no count stored yet) when read", async () => {
    const { owner, timelineId, ids } = await story(["a"]);
    await env.DB.prepare("UPDATE events SET word_count = NULL, content = 'one two three' WHERE id = ?").bind(ids.a).run();
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: owner.token })).json.wordCount).toBe(3);
    const row = await env.DB.prepare("SELECT word_count FROM events WHERE id = ?").bind(ids.a).first();
    expect(row).toEqual({ word_count: 3 });
  });

  it("a timeline's target: the owner sets a positive whole number or null", async () => {
    const { owner, timelineId } = await story([]);
    const patch = (targetWords: unknown) => call("PATCH", `/api/timelines/${timelineId}`, { token: owner.token, body: { targetWords } });
    expect((await patch(80_000)).json).toMatchObject({ targetWords: 80_000, wordCount: 0 });
    expect((await patch(-5)).status).toBe(400);
    expect((await patch("many")).status).toBe(400);
    expect((await patch(10_000_001)).status).toBe(400);
    expect((await patch(null)).json).toMatchObject({ targetWords: null });
  });
});
