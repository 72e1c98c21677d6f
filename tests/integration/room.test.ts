import { describe, expect, it } from "vitest";
import { call, createEvent, premiumOwnerWithTimeline, registerUser, shareByEmail } from "./helpers";

import { type Msg, connect, lastPresence, sleep, upgrade } from "./room-helpers";

/** A Premium owner's timeline shared with a verified collaborator, Cora (or `name`). */
async function withCollaborator(name = "Cora") {
  const { owner, timelineId } = await premiumOwnerWithTimeline();
  const collab = await registerUser({ name });
  await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
  return { owner, collab, timelineId };
}

describe("room connection is authorized before any socket opens", () => {
  it("refuses anonymous (401), strangers (403) and bad ids (404)", async () => {
    const { timelineId } = await premiumOwnerWithTimeline();
    const stranger = await registerUser();
    expect((await upgrade(`/ws/${timelineId}`)).status).toBe(401);
    expect((await upgrade(`/ws/${timelineId}`, stranger.token)).status).toBe(403);
    expect((await upgrade(`/ws/999999999`, stranger.token)).status).toBe(403);
    expect((await upgrade(`/ws/abc`, stranger.token)).status).toBe(404);
    expect((await upgrade(`/ws/${timelineId}`, "forged-token")).status).toBe(401);
  });

  it("a share code grants the link's role", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const link = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } });
    const guest = await registerUser({ name: "Guest" });
    expect((await upgrade(`/ws/${timelineId}?share=wrong`, guest.token)).status).toBe(403);
    const room = await connect(timelineId, guest.token, link.json.shareCode);
    const presence = await room.waitFor((m) => m.type === "presence", "presence");
    expect(presence.presence.users).toEqual([expect.objectContaining({ userName: "Guest", accessMode: "viewer", isOwner: false })]);
    room.ws.close();
  });

  it("identity comes from the session, never from join", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const room = await connect(timelineId, owner.token);
    room.send({ type: "join", timelineId, userId: 424242, userName: "Mallory", accessMode: "owner" });
    await sleep(50);
    const users = lastPresence(room.messages);
    expect(users).toEqual([{ userId: owner.user.id, userName: "Olive Owner", accessMode: "owner", isOwner: true, editingEventId: null }]);
    // Headers that claim an identity are stripped by the Worker.
    const collab = await registerUser({ name: "Cora" });
    await shareByEmail(timelineId, owner.token, collab.email, "viewer");
    const forged = await upgrade(`/ws/${timelineId}`, collab.token, {
      "X-StoryWeave-Access": "owner",
      "X-StoryWeave-User-Id": String(owner.user.id),
    });
    const ws = forged.webSocket!;
    ws.accept();
    await room.waitFor((m) => m.type === "presence" && m.presence.users.some((u: any) => u.userName === "Cora"), "Cora");
    expect(lastPresence(room.messages).find((u: any) => u.userName === "Cora")).toMatchObject({
      userId: collab.user.id,
      accessMode: "viewer",
    });
    ws.close();
    room.ws.close();
  });
});

describe("presence", () => {
  it("one entry per user across tabs; join/leave notifications", async () => {
    const { owner, collab, timelineId } = await withCollaborator("Cora Collab");
    const a = await connect(timelineId, owner.token);
    await a.waitFor((m) => m.type === "presence");
    const b1 = await connect(timelineId, collab.token);
    const b2 = await connect(timelineId, collab.token);
    await a.waitFor((m) => m.type === "notification" && m.notification.type === "join", "join notification");
    await sleep(50);
    expect(lastPresence(a.messages).map((u: any) => u.userName)).toEqual(["Olive Owner", "Cora Collab"]);
    expect(a.messages.filter((m) => m.type === "notification" && m.notification.type === "join")).toHaveLength(1);

    a.clear();
    b1.ws.close();
    await sleep(100);
    expect(lastPresence(a.messages).map((u: any) => u.userName)).toEqual(["Olive Owner", "Cora Collab"]);
    expect(a.messages.some((m) => m.type === "notification" && m.notification.type === "leave")).toBe(false);
    b2.ws.close();
    await a.waitFor((m) => m.type === "notification" && m.notification.message === "Cora Collab left the timeline", "leave");
    expect(lastPresence(a.messages).map((u: any) => u.userName)).toEqual(["Olive Owner"]);
    a.ws.close();
  });
});

describe("change relay", () => {
  it("relays a collaborator's change to others with the real sender; drops a viewer's", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const ev = await call("POST", `/api/timelines/${timelineId}/events`, { token: owner.token, body: { title: "E", content: "c" } });
    const collab = await registerUser({ name: "Cora" });
    const viewer = await registerUser({ name: "Vic" });
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    await shareByEmail(timelineId, owner.token, viewer.email, "viewer");
    const o = await connect(timelineId, owner.token);
    const c = await connect(timelineId, collab.token);
    const v = await connect(timelineId, viewer.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 3, "3 present");

    c.send({
      type: "change",
      timelineId,
      eventId: ev.json.id,
      userId: owner.user.id,
      userName: "Fake",
      change: { type: "content", value: "typing..." },
    });
    const relayed = await o.waitFor((m) => m.type === "change", "change");
    expect(relayed).toEqual({
      type: "change",
      eventId: ev.json.id,
      userId: collab.user.id,
      userName: "Cora",
      change: { type: "content", value: "typing..." },
    });
    expect(c.messages.some((m) => m.type === "change")).toBe(false);

    o.clear();
    v.send({ type: "change", timelineId, eventId: ev.json.id, change: { type: "title", value: "hacked" } });
    const err = await v.waitFor((m) => m.type === "error", "viewer error");
    expect(err.error).toBe("Viewers cannot edit this timeline");
    await sleep(50);
    expect(o.messages.some((m) => m.type === "change")).toBe(false);
    for (const r of [o, c, v]) r.ws.close();
  });

  it("refuses malformed, oversize and flooding messages without affecting others", async () => {
    const { owner, collab, timelineId } = await withCollaborator();
    const o = await connect(timelineId, owner.token);
    const c = await connect(timelineId, collab.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 2);

    c.send("{not json");
    expect((await c.waitFor((m) => m.type === "error")).error).toBe("Malformed message");
    c.clear();
    c.send({ type: "change", eventId: "x", change: { type: "title", value: 1 } });
    expect((await c.waitFor((m) => m.type === "error")).error).toBe("Malformed message");
    c.clear();
    c.send("x".repeat(70_000));
    expect((await c.waitFor((m) => m.type === "error")).error).toBe("Message too large or not text");
    await sleep(1100);
    c.clear();
    o.clear();
    for (let i = 0; i < 40; i++) c.send({ type: "change", eventId: 1, change: { type: "content", value: `v${i}` } });
    await c.waitFor((m) => m.type === "error" && m.error === "Too many messages; slow down", "flood error");
    await sleep(100);
    const relayed = o.messages.filter((m) => m.type === "change").length;
    expect(relayed).toBeGreaterThan(0);
    expect(relayed).toBeLessThanOrEqual(20);
    // The owner is unaffected: still connected and still receiving.
    expect(o.closed.code).toBeUndefined();
    o.ws.close();
    c.ws.close();
  });
});

describe("REST mutations reach the room", () => {
  it("sends sync and a notification to others after add, edit, move and delete", async () => {
    const { owner, collab, timelineId } = await withCollaborator();
    const o = await connect(timelineId, owner.token);
    const c = await connect(timelineId, collab.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 2);
    o.clear();
    c.clear();

    const ev = await call("POST", `/api/timelines/${timelineId}/events`, {
      token: collab.token,
      body: { title: "Storm", content: "rain" },
    });
    await o.waitFor((m) => m.type === "sync", "sync after add");
    const n = await o.waitFor((m) => m.type === "notification", "notification after add");
    expect(n.notification.message).toBe('Cora added "Storm"');
    await c.waitFor((m) => m.type === "sync", "sync to the actor too");
    expect(c.messages.some((m) => m.type === "notification")).toBe(false);

    for (const [method, path, body] of [
      ["PATCH", `/api/events/${ev.json.id}`, { title: "Storm 2" }],
      ["PATCH", `/api/timelines/${timelineId}`, { title: "Renamed" }],
      ["DELETE", `/api/events/${ev.json.id}`, undefined],
    ] as const) {
      o.clear();
      const res = await call(method, path, { token: method === "PATCH" && path.includes("events") ? collab.token : owner.token, body });
      expect(res.status).toBe(200);
      await o.waitFor((m) => m.type === "sync", `sync after ${method} ${path}`);
    }
    o.ws.close();
    c.ws.close();
  });

  it("removing a share closes that user's connection at once", async () => {
    const { owner, collab, timelineId } = await withCollaborator();
    const c = await connect(timelineId, collab.token);
    await c.waitFor((m) => m.type === "presence");
    const res = await call("DELETE", `/api/timelines/${timelineId}/shares/${collab.user.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    const start = Date.now();
    while (c.closed.code === undefined && Date.now() - start < 3000) await sleep(10);
    expect(c.closed.code).toBe(4403);
    expect((await upgrade(`/ws/${timelineId}`, collab.token)).status).toBe(403);
    expect((await call("GET", `/api/timelines/${timelineId}/events`, { token: collab.token })).status).toBe(404);
  });

  it("one move, one signal: every other connection gets exactly one sync, the mover's none", async () => {
    const { owner, collab, timelineId } = await withCollaborator();
    const events = [];
    for (const title of ["A", "B", "C"]) events.push(await createEvent(owner.token, timelineId, { title }));
    const mover = await connect(timelineId, owner.token, undefined, "owner-tab-1");
    const moverOtherTab = await connect(timelineId, owner.token, undefined, "owner-tab-2");
    const other = await connect(timelineId, collab.token);
    await other.waitFor((m) => m.type === "presence" && m.presence.users.length === 2);
    await sleep(100);
    for (const s of [mover, moverOtherTab, other]) s.clear();

    const res = await call("PATCH", `/api/events/${events[2].id}`, {
      token: owner.token,
      body: { position: 0 },
      headers: { "X-Room-Connection": "owner-tab-1" },
    });
    expect(res.status).toBe(200);
    await other.waitFor((m) => m.type === "sync", "sync to the collaborator");
    await moverOtherTab.waitFor((m) => m.type === "sync", "sync to the mover's other tab");
    await sleep(300);
    const syncs = (s: { messages: Msg[] }) => s.messages.filter((m) => m.type === "sync").length;
    expect(syncs(other)).toBe(1);
    expect(syncs(moverOtherTab)).toBe(1);
    expect(syncs(mover)).toBe(0);
    // Nobody else is told the change twice (no relayed position `change` from the server).
    expect(other.messages.filter((m) => m.type === "change")).toEqual([]);
    expect(other.messages.filter((m) => m.type === "notification").map((m) => m.notification.message)).toEqual(['Olive Owner moved "C"']);
    for (const s of [mover, moverOtherTab, other]) s.ws.close();
  });

  it("joining through a share link tells the room once (a new share row); opening it or joining again tells nobody", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const link = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "collaborator" } });
    expect(link.status).toBe(200);
    const o = await connect(timelineId, owner.token);
    await o.waitFor((m) => m.type === "presence");
    o.clear();
    const guest = await registerUser({ name: "Gina" });
    const join = () => call("POST", `/api/timelines/shared/${link.json.shareCode}/join`, { token: guest.token });
    expect((await call("GET", `/api/timelines/shared/${link.json.shareCode}`, { token: guest.token })).status).toBe(200);
    expect((await join()).status).toBe(200);
    await o.waitFor((m) => m.type === "sync", "sync after a new share row");
    expect((await join()).status).toBe(200);
    await sleep(300);
    expect(o.messages.filter((m) => m.type === "sync").length).toBe(1);
    o.ws.close();
  });
});
