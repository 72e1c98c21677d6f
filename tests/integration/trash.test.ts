import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FREE_TIMELINE_LIMIT } from "../../db/domain/validation";
import { createDb } from "../../db/client";
import { purgeExpired } from "../../worker/services/purge";
import { FREE_LIMIT_MESSAGE } from "../../worker/services/timelines";
import { TRASHED_TIMELINE_MESSAGE, UNKNOWN_KIND_MESSAGE } from "../../worker/services/trash";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith } from "./helpers";
import { upgrade } from "./room-helpers";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const DAY = 24 * 3600_000;

async function upload(eventId: number, token: string) {
  const form = new FormData();
  form.append("file", new Blob([PNG], { type: "image/png" }), "map.png");
  const { ORIGIN } = await import("./helpers");
  const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
  const worker = (await import("../../worker/index")).default;
  const ctx = createExecutionContext();
  const req = new Request(`${ORIGIN}/api/events/${eventId}/attachments`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
  const res = await worker.fetch(req as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: number };
}

const titles = async (timelineId: number, token: string) =>
  ((await call("GET", `/api/timelines/${timelineId}/events`, { token })).json as Array<{ title: string; position: number }>).map(
    (e) => `${e.position}:${e.title}`,
  );

/** A premium owner (no limit in the way) with a collaborator and a viewer on a three-scene timeline. */
async function story() {
  const owner = await registerUser({ name: "Olive Owner" });
  await makePremium(owner.user.id);
  const collaborator = await registerUser({ name: "Cora Collab" });
  const viewer = await registerUser({ name: "Vic Viewer" });
  const outsider = await registerUser({ name: "Otto Outsider" });
  const tl = await createTimeline(owner.token, { title: "Harbour" });
  await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
  await shareWith(tl.id, owner.user.id, viewer.user.id, "viewer");
  const entity = await call("POST", `/api/timelines/${tl.id}/entities`, { token: owner.token, body: { kind: "character", name: "Mara" } });
  expect(entity.status, entity.text).toBe(201);
  const a = await createEvent(owner.token, tl.id, { title: "Storm", content: "The storm breaks." });
  const b = await createEvent(owner.token, tl.id, { title: "Boats", content: "Mara runs for the boats.", entityIds: [entity.json.id] });
  const c = await createEvent(owner.token, tl.id, { title: "Dawn", content: "Calm." });
  return { owner, collaborator, viewer, outsider, timelineId: tl.id as number, a, b, c, entityId: entity.json.id as number };
}

describe("trash: a deleted scene is gone everywhere, then comes back whole", () => {
  it("404s while trashed, is listed, and restores with text, links, attachments and versions", async () => {
    const s = await story();
    const { owner } = s;
    const edit = await call("PATCH", `/api/events/${s.b.id}`, { token: owner.token, body: { content: "Mara runs.", baseVersion: 1 } });
    expect(edit.status, edit.text).toBe(200);
    const file = await upload(s.b.id, owner.token);
    const key = (await env.DB.prepare("SELECT r2_key AS k FROM files WHERE id = ?").bind(file.id).first<{ k: string }>())!.k;

    const del = await call("DELETE", `/api/events/${s.b.id}`, { token: owner.token });
    expect(del.status, del.text).toBe(200);
    expect(await titles(s.timelineId, owner.token)).toEqual(["0:Storm", "1:Dawn"]);
    expect((await call("PATCH", `/api/events/${s.b.id}`, { token: owner.token, body: { title: "X" } })).status).toBe(404);
    expect((await call("DELETE", `/api/events/${s.b.id}`, { token: owner.token })).status).toBe(404);
    expect((await call("GET", `/api/events/${s.b.id}/versions`, { token: owner.token })).status).toBe(404);
    expect((await call("GET", `/api/attachments/${file.id}`, { token: owner.token })).status).toBe(404);
    const exported = await call("GET", `/api/timelines/${s.timelineId}/export?format=json`, { token: owner.token });
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain("Mara runs.");
    const map = await call("GET", `/api/timelines/${s.timelineId}/map`, { token: owner.token });
    expect(map.status).toBe(200);
    expect(map.text).not.toContain("Boats");
    expect((await upgrade(`/ws/${s.timelineId}/events/${s.b.id}/doc`, owner.token)).status).toBe(404);
    // Its bytes stay until the purge.
    expect(await env.FILES.head(key)).not.toBeNull();

    const trash = await call("GET", "/api/trash", { token: owner.token });
    expect(trash.status).toBe(200);
    expect(trash.json).toEqual([
      {
        kind: "event",
        id: s.b.id,
        title: "Boats",
        timelineTitle: "Harbour",
        deletedAt: expect.any(String),
        deletedBy: { id: owner.user.id, name: "Olive Owner" },
      },
    ]);

    const restored = await call("POST", `/api/trash/event/${s.b.id}/restore`, { token: owner.token });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.json).toMatchObject({ id: s.b.id, title: "Boats", content: "Mara runs.", position: 1, entityIds: [s.entityId] });
    expect(restored.json.attachments).toEqual([expect.objectContaining({ id: file.id, filename: "map.png" })]);
    expect(await titles(s.timelineId, owner.token)).toEqual(["0:Storm", "1:Boats", "2:Dawn"]);
    const versions = await call("GET", `/api/events/${s.b.id}/versions`, { token: owner.token });
    expect(versions.status).toBe(200);
    expect(versions.json.length).toBeGreaterThanOrEqual(2);
    expect((await call("GET", `/api/attachments/${file.id}`, { token: owner.token })).status).toBe(200);
    expect((await call("GET", "/api/trash", { token: owner.token })).json).toEqual([]);
    // Restoring again: nothing in Trash.
    expect((await call("POST", `/api/trash/event/${s.b.id}/restore`, { token: owner.token })).status).toBe(404);
  });

  it("keeps one story order: restored at its old place, or at the end when the story got shorter", async () => {
    const s = await story();
    const { owner } = s;
    await call("DELETE", `/api/events/${s.a.id}`, { token: owner.token });
    const d = await createEvent(owner.token, s.timelineId, { title: "Night" });
    expect(d.position).toBe(2);
    expect(await titles(s.timelineId, owner.token)).toEqual(["0:Boats", "1:Dawn", "2:Night"]);
    await call("POST", `/api/trash/event/${s.a.id}/restore`, { token: owner.token });
    expect(await titles(s.timelineId, owner.token)).toEqual(["0:Storm", "1:Boats", "2:Dawn", "3:Night"]);

    // Trashed from the end, then the story shrinks: it comes back last.
    await call("DELETE", `/api/events/${d.id}`, { token: owner.token });
    await call("DELETE", `/api/events/${s.c.id}`, { token: owner.token });
    await call("DELETE", `/api/events/${s.b.id}`, { token: owner.token });
    await call("POST", `/api/trash/event/${d.id}/restore`, { token: owner.token });
    expect(await titles(s.timelineId, owner.token)).toEqual(["0:Storm", "1:Night"]);
    // A move among live scenes ignores trashed ones.
    const moved = await call("PATCH", `/api/events/${d.id}`, { token: owner.token, body: { position: 9 } });
    expect(moved.json.position).toBe(1);
  });
});

describe("trash: roles", () => {
  it("a collaborator restores a scene; viewers, outsiders and removed collaborators get 404", async () => {
    const s = await story();
    await call("DELETE", `/api/events/${s.c.id}`, { token: s.owner.token });
    expect((await call("GET", "/api/trash", { token: s.viewer.token })).json).toEqual([]);
    expect((await call("GET", "/api/trash", { token: s.outsider.token })).json).toEqual([]);
    expect((await call("GET", "/api/trash", { token: s.collaborator.token })).json.map((i: { id: number }) => i.id)).toEqual([s.c.id]);
    expect((await call("POST", `/api/trash/event/${s.c.id}/restore`, { token: s.viewer.token })).status).toBe(404);
    expect((await call("POST", `/api/trash/event/${s.c.id}/restore`, { token: s.outsider.token })).status).toBe(404);
    const ok = await call("POST", `/api/trash/event/${s.c.id}/restore`, { token: s.collaborator.token });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ id: s.c.id, title: "Dawn", position: 2 });

    await call("DELETE", `/api/events/${s.c.id}`, { token: s.owner.token });
    await env.DB.prepare("DELETE FROM timeline_shares WHERE timeline_id = ? AND shared_with_user_id = ?")
      .bind(s.timelineId, s.collaborator.user.id)
      .run();
    expect((await call("GET", "/api/trash", { token: s.collaborator.token })).json).toEqual([]);
    expect((await call("POST", `/api/trash/event/${s.c.id}/restore`, { token: s.collaborator.token })).status).toBe(404);
  });

  it("a trashed timeline is the owner's alone to see and restore; its scenes come back with it", async () => {
    const s = await story();
    const del = await call("DELETE", `/api/timelines/${s.timelineId}`, { token: s.owner.token });
    expect(del.status, del.text).toBe(200);
    for (const token of [s.owner.token, s.collaborator.token]) {
      expect((await call("GET", `/api/timelines/${s.timelineId}`, { token })).status).toBe(404);
      expect((await call("GET", `/api/timelines/${s.timelineId}/events`, { token })).status).toBe(404);
      expect((await call("GET", `/api/timelines/${s.timelineId}/export?format=json`, { token })).status).toBe(404);
      expect((await call("GET", `/api/events/${s.a.id}/versions`, { token })).status).toBe(404);
      expect((await call("GET", "/api/timelines", { token })).json.map((t: { id: number }) => t.id)).not.toContain(s.timelineId);
    }
    expect((await upgrade(`/ws/${s.timelineId}`, s.owner.token)).status).not.toBe(101);
    expect((await call("GET", "/api/trash", { token: s.collaborator.token })).json).toEqual([]);
    expect((await call("POST", `/api/trash/timeline/${s.timelineId}/restore`, { token: s.collaborator.token })).status).toBe(404);
    const listed = (await call("GET", "/api/trash", { token: s.owner.token })).json;
    expect(listed).toEqual([expect.objectContaining({ kind: "timeline", id: s.timelineId, title: "Harbour", timelineTitle: "Harbour" })]);
    // A scene of a trashed timeline waits for its timeline.
    await env.DB.prepare("UPDATE events SET deleted_at = ?, deleted_by = ? WHERE id = ?")
      .bind(new Date().toISOString(), s.owner.user.id, s.c.id)
      .run();
    const early = await call("POST", `/api/trash/event/${s.c.id}/restore`, { token: s.owner.token });
    expect(early.status).toBe(400);
    expect(early.json.error).toBe(TRASHED_TIMELINE_MESSAGE);

    const back = await call("POST", `/api/trash/timeline/${s.timelineId}/restore`, { token: s.owner.token });
    expect(back.status, back.text).toBe(200);
    expect(back.json).toMatchObject({ id: s.timelineId, title: "Harbour", isOwner: true });
    expect(await titles(s.timelineId, s.collaborator.token)).toEqual(["0:Storm", "1:Boats"]);
    expect((await call("GET", "/api/trash", { token: s.owner.token })).json.map((i: { id: number }) => i.id)).toEqual([s.c.id]);
  });

  it("forged kinds and ids are 400/404, never 500", async () => {
    const s = await story();
    const bad = await call("POST", "/api/trash/scene/1/restore", { token: s.owner.token });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe(UNKNOWN_KIND_MESSAGE);
    for (const path of [
      "/api/trash/event/abc/restore",
      "/api/trash/event/0/restore",
      "/api/trash/timeline/99999999/restore",
      `/api/trash/event/${s.a.id}/restore`,
    ]) {
      expect((await call("POST", path, { token: s.owner.token })).status, path).toBe(404);
    }
    expect((await call("GET", "/api/trash")).status).toBe(401);
    expect((await call("POST", `/api/trash/event/${s.a.id}/restore`)).status).toBe(401);
  });
});

describe("trash: the free limit", () => {
  it("a trashed timeline does not count; restoring one at the limit is refused with the limit's message", async () => {
    const writer = await registerUser();
    const made = [];
    for (let i = 0; i < FREE_TIMELINE_LIMIT; i++) made.push(await createTimeline(writer.token, { title: `T${i}` }));
    expect((await call("POST", "/api/timelines", { token: writer.token, body: { title: "Over" } })).status).toBe(403);
    await call("DELETE", `/api/timelines/${made[0].id}`, { token: writer.token });
    const fresh = await call("POST", "/api/timelines", { token: writer.token, body: { title: "Room again" } });
    expect(fresh.status, fresh.text).toBe(201);
    const refused = await call("POST", `/api/trash/timeline/${made[0].id}/restore`, { token: writer.token });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe(FREE_LIMIT_MESSAGE);
    await call("DELETE", `/api/timelines/${fresh.json.id}`, { token: writer.token });
    expect((await call("POST", `/api/trash/timeline/${made[0].id}/restore`, { token: writer.token })).status).toBe(200);
  });
});

describe("trash: the purge", () => {
  it("removes what has been in Trash for more than 30 days, with its files' bytes; keeps younger items", async () => {
    const s = await story();
    const file = await upload(s.a.id, s.owner.token);
    const key = (await env.DB.prepare("SELECT r2_key AS k FROM files WHERE id = ?").bind(file.id).first<{ k: string }>())!.k;
    await call("DELETE", `/api/events/${s.a.id}`, { token: s.owner.token });
    const other = await createTimeline(s.owner.token, { title: "Old book" });
    const oldScene = await createEvent(s.owner.token, other.id, { title: "Old scene" });
    const oldFile = await upload(oldScene.id, s.owner.token);
    const oldKey = (await env.DB.prepare("SELECT r2_key AS k FROM files WHERE id = ?").bind(oldFile.id).first<{ k: string }>())!.k;
    await call("DELETE", `/api/timelines/${other.id}`, { token: s.owner.token });
    const young = await createEvent(s.owner.token, s.timelineId, { title: "Young" });
    await call("DELETE", `/api/events/${young.id}`, { token: s.owner.token });
    // The young one was trashed a day after the others.
    await env.DB.prepare("UPDATE events SET deleted_at = ? WHERE id = ?")
      .bind(new Date(Date.now() + 2 * DAY).toISOString(), young.id)
      .run();

    const purged = await purgeExpired(createDb(env.DB), Date.now() + 31 * DAY, { files: env.FILES });
    expect(purged.trashedTimelines).toBeGreaterThanOrEqual(1);
    const gone = async (sql: string, id: number) => (await env.DB.prepare(sql).bind(id).first()) === null;
    expect(await gone("SELECT id FROM events WHERE id = ?", s.a.id)).toBe(true);
    expect(await gone("SELECT id FROM files WHERE id = ?", file.id)).toBe(true);
    expect(await gone("SELECT id FROM timelines WHERE id = ?", other.id)).toBe(true);
    expect(await gone("SELECT id FROM events WHERE id = ?", oldScene.id)).toBe(true);
    expect(await env.FILES.head(key)).toBeNull();
    expect(await env.FILES.head(oldKey)).toBeNull();
    expect(await gone("SELECT id FROM events WHERE id = ?", young.id)).toBe(false);
    expect(await gone("SELECT id FROM timelines WHERE id = ?", s.timelineId)).toBe(false);
    // The purge at that hour also ended every session: sign in again.
    const login = await call("POST", "/api/auth/login", { body: { email: s.owner.email, password: s.owner.password } });
    expect(await titles(s.timelineId, login.json.token)).toEqual(["0:Boats", "1:Dawn"]);
    const restored = await call("POST", `/api/trash/event/${young.id}/restore`, { token: login.json.token });
    expect(restored.status).toBe(200);
  });
});
