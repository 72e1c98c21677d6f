import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, shareWith, lastRequestWith, lighthouseStory } from "./helpers";

// Relationships between codex entries (DESIGN.md §12): CRUD, refusals, and the story bible as of a scene.

/** Three chapters (3, 9, 12), a scene each; Mara, Tobin and Edda in the codex; the owner writes with their own model. */
async function story() {
  const { owner, timeline, scenes } = await lighthouseStory();
  const entry = async (name: string) =>
    (await call("POST", `/api/timelines/${timeline.id}/entities`, { token: owner.token, body: { kind: "character", name } })).json;
  return { owner, timeline, scenes, mara: await entry("Mara"), tobin: await entry("Tobin"), edda: await entry("Edda") };
}

describe("relationships", () => {
  it("are added, listed, changed and deleted by writers with edit access", async () => {
    const { owner, timeline, scenes, mara, tobin } = await story();
    const path = `/api/timelines/${timeline.id}/relationships`;
    const added = await call("POST", path, { token: owner.token, body: { fromId: mara.id, toId: tobin.id, label: "mother of" } });
    expect(added.status, added.text).toBe(201);
    expect(added.json).toMatchObject({ timelineId: timeline.id, fromId: mara.id, toId: tobin.id, label: "mother of", sinceEventId: null });
    expect((await call("GET", path, { token: owner.token })).json).toEqual([added.json]);
    const moved = await call("PATCH", `/api/relationships/${added.json.id}`, {
      token: owner.token,
      body: { label: "rival of", sinceEventId: scenes["9"].id },
    });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.json).toMatchObject({ label: "rival of", sinceEventId: scenes["9"].id, fromId: mara.id, toId: tobin.id });
    expect((await call("DELETE", `/api/relationships/${added.json.id}`, { token: owner.token })).json).toEqual({ success: true });
    expect((await call("GET", path, { token: owner.token })).json).toEqual([]);
  });

  it("refuses bad input with clear messages, viewers with 403, strangers and forged ids with 404", async () => {
    const { owner, timeline, scenes, mara, tobin } = await story();
    const path = `/api/timelines/${timeline.id}/relationships`;
    const added = await call("POST", path, { token: owner.token, body: { fromId: mara.id, toId: tobin.id, label: "sister of" } });
    const other = await createTimeline(owner.token, { title: "Elsewhere" });
    const foreign = (
      await call("POST", `/api/timelines/${other.id}/entities`, { token: owner.token, body: { kind: "character", name: "Ilse" } })
    ).json;
    const farScene = await createEvent(owner.token, other.id, { title: "Far away" });
    for (const [body, error] of [
      [{ fromId: mara.id, toId: mara.id, label: "x" }, "A relationship joins two different entries"],
      [{ fromId: mara.id, toId: foreign.id, label: "x" }, "Both entries must be codex entries of this timeline"],
      [{ fromId: mara.id, toId: 99999999, label: "x" }, "Both entries must be codex entries of this timeline"],
      [{ fromId: mara.id, toId: tobin.id, label: "x", sinceEventId: farScene.id }, "That scene is not in this timeline"],
      [{ fromId: mara.id, toId: tobin.id, label: "  " }, "Please name the relationship"],
      [{ fromId: mara.id, toId: tobin.id, label: "x".repeat(101) }, "A relationship's label is at most 100 characters"],
      [{ toId: tobin.id, label: "x" }, "Choose both entries"],
    ] as const) {
      expect(await call("POST", path, { token: owner.token, body })).toMatchObject({ status: 400, json: { error } });
    }
    const malformed = await call("POST", path, { token: owner.token, rawBody: "{not json" });
    expect(malformed.status).toBe(400);
    const huge = await call("POST", path, { token: owner.token, body: { fromId: mara.id, toId: tobin.id, label: "x".repeat(2_000_000) } });
    expect([400, 413]).toContain(huge.status);
    expect(await call("PATCH", `/api/relationships/${added.json.id}`, { token: owner.token, body: { toId: mara.id } })).toMatchObject({
      status: 400,
      json: { error: "A relationship joins two different entries" },
    });
    expect(await call("PATCH", `/api/relationships/${added.json.id}`, { token: owner.token, body: {} })).toMatchObject({ status: 400 });
    expect(
      (await call("PATCH", `/api/relationships/${added.json.id}`, { token: owner.token, body: { sinceEventId: scenes["3"].id } })).status,
    ).toBe(200);

    const viewer = await registerUser();
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    expect((await call("GET", path, { token: viewer.token })).json).toHaveLength(1);
    expect((await call("POST", path, { token: viewer.token, body: { fromId: mara.id, toId: tobin.id, label: "x" } })).status).toBe(403);
    expect((await call("PATCH", `/api/relationships/${added.json.id}`, { token: viewer.token, body: { label: "x" } })).status).toBe(403);
    expect((await call("DELETE", `/api/relationships/${added.json.id}`, { token: viewer.token })).status).toBe(403);

    const stranger = await registerUser();
    expect((await call("GET", path, { token: stranger.token })).status).toBe(404);
    expect((await call("POST", path, { token: stranger.token, body: { fromId: mara.id, toId: tobin.id, label: "x" } })).status).toBe(404);
    expect(await call("PATCH", `/api/relationships/${added.json.id}`, { token: stranger.token, body: { label: "x" } })).toMatchObject({
      status: 404,
      json: { error: "Relationship not found" },
    });
    expect((await call("DELETE", `/api/relationships/${added.json.id}`, { token: stranger.token })).status).toBe(404);
    expect((await call("PATCH", "/api/relationships/99999999", { token: owner.token, body: { label: "x" } })).status).toBe(404);
    expect((await call("DELETE", "/api/relationships/abc", { token: owner.token })).status).toBe(404);
    expect((await call("GET", "/api/timelines/99999999/relationships", { token: owner.token })).status).toBe(404);
    // The stranger's own timeline cannot take these entries either.
    const theirs = await createTimeline(stranger.token, { title: "Theirs" });
    expect(
      await call("POST", `/api/timelines/${theirs.id}/relationships`, {
        token: stranger.token,
        body: { fromId: mara.id, toId: tobin.id, label: "x" },
      }),
    ).toMatchObject({ status: 400, json: { error: "Both entries must be codex entries of this timeline" } });
    expect((await call("GET", path, { token: owner.token })).json).toHaveLength(1);
  });

  it("a flood of creates stops at 2,000 relationships a timeline, with a clear 400", async () => {
    const { owner, timeline, mara, tobin } = await story();
    const path = `/api/timelines/${timeline.id}/relationships`;
    // The first 1,999 written directly; the API makes the 2,000th and refuses the next.
    const values = Array.from({ length: 1999 }, () => `(${timeline.id}, ${mara.id}, ${tobin.id}, 'ally of', '2026-01-01T00:00:00.000Z')`);
    for (let i = 0; i < values.length; i += 400)
      await env.DB.prepare(
        `INSERT INTO relationships (timeline_id, from_id, to_id, label, created_at) VALUES ${values.slice(i, i + 400).join(",")}`,
      ).run();
    expect((await call("POST", path, { token: owner.token, body: { fromId: mara.id, toId: tobin.id, label: "rival of" } })).status).toBe(
      201,
    );
    expect(await call("POST", path, { token: owner.token, body: { fromId: tobin.id, toId: mara.id, label: "rival of" } })).toMatchObject({
      status: 400,
      json: { error: "A timeline has at most 2,000 relationships" },
    });
  });
});

describe("relationships in the story bible", () => {
  it("the scene of chapter 12 knows Mara became Tobin's rival in chapter 9; the scene of chapter 3 does not", async () => {
    const { owner, timeline, scenes, mara, tobin, edda } = await story();
    const path = `/api/timelines/${timeline.id}/relationships`;
    await call("POST", path, { token: owner.token, body: { fromId: edda.id, toId: mara.id, label: "mother of" } });
    await call("POST", path, {
      token: owner.token,
      body: { fromId: mara.id, toId: tobin.id, label: "rival of", sinceEventId: scenes["9"].id },
    });
    const promptFor = async (n: string) => {
      const marker = `[[rel-${n}-${mara.id}]]`;
      const res = await call("POST", `/api/events/${scenes[n].id}/continue`, { token: owner.token, body: { instruction: marker } });
      expect(res.status, res.text).toBe(200);
      return (await lastRequestWith(marker)).user as string;
    };
    const twelve = await promptFor("12");
    expect(twelve).toContain('Relationships:\n- Edda mother of Mara\n- Mara rival of Tobin (from "Scene of chapter 9" on)');
    expect(await promptFor("9")).toContain("- Mara rival of Tobin");
    const three = await promptFor("3");
    expect(three).toContain("- Edda mother of Mara");
    expect(three).not.toContain("rival of");
  });
});
