import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, premiumOwnerWithTimeline, registerUser, shareByEmail } from "./helpers";
import { closedWith, connect, lastPresence, sleep, upgrade } from "./room-helpers";

const NOT_FOUND = { error: "Timeline not found" };

async function linkFor(timelineId: number, token: string, role: "viewer" | "collaborator" = "collaborator") {
  const res = await call("POST", `/api/timelines/${timelineId}/share`, { token, body: { role } });
  expect(res.status, res.text).toBe(200);
  return res.json.shareCode as string;
}

/** 'Join timeline' on the page a share link opens. */
const join = (code: string, token?: string) => call("POST", `/api/timelines/shared/${code}/join`, { token });

/** Every way a share code opens a timeline, as `who` (a writer with no share row of their own). */
async function pathsWithCode(timelineId: number, eventId: number, code: string, token: string) {
  const q = `?share=${code}`;
  return {
    shared: await call("GET", `/api/timelines/shared/${code}`, { token }),
    join: await join(code, token),
    timeline: await call("GET", `/api/timelines/${timelineId}${q}`, { token }),
    events: await call("GET", `/api/timelines/${timelineId}/events${q}`, { token }),
    entities: await call("GET", `/api/timelines/${timelineId}/entities${q}`, { token }),
    add: await call("POST", `/api/timelines/${timelineId}/events${q}`, { token, body: { title: "x", content: "y" } }),
    edit: await call("PATCH", `/api/events/${eventId}${q}`, { token, body: { title: "hijacked" } }),
    socket: (await upgrade(`/ws/${timelineId}${q}`, token)).status,
  };
}

function expectAllRefused(p: Awaited<ReturnType<typeof pathsWithCode>>) {
  expect(p.shared).toMatchObject({ status: 404, json: NOT_FOUND });
  expect(p.join).toMatchObject({ status: 404, json: NOT_FOUND });
  expect(p.timeline).toMatchObject({ status: 404, json: NOT_FOUND });
  expect(p.events).toMatchObject({ status: 404, json: NOT_FOUND });
  expect(p.entities.status).toBe(404);
  expect(p.add).toMatchObject({ status: 404, json: NOT_FOUND });
  expect(p.edit.status).toBe(404);
  expect(p.socket).toBe(403);
}

describe("share links join on request", () => {
  const inList = async (token: string, timelineId: number) =>
    ((await call("GET", "/api/timelines", { token })).json as any[]).some((t) => t.id === timelineId);

  it("opening (GET) reads with the link's level and adds nothing; only Join adds the timeline", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Open Sea");
    await createEvent(owner.token, timelineId, { title: "Landfall" });
    const code = await linkFor(timelineId, owner.token, "collaborator");
    const guest = await registerUser({ name: "Gale Guest" });

    for (let i = 0; i < 2; i++) {
      const opened = await call("GET", `/api/timelines/shared/${code}`, { token: guest.token });
      expect(opened).toMatchObject({ status: 200, json: { accessMode: "collaborator", timeline: { id: timelineId, title: "Open Sea" } } });
    }
    expect(await inList(guest.token, timelineId)).toBe(false);
    expect((await call("GET", `/api/timelines/${timelineId}`, { token: guest.token })).status).toBe(404);
    expect((await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token })).json).toEqual([]);

    const joined = await join(code, guest.token);
    expect(joined.status, joined.text).toBe(200);
    expect(joined.json).toEqual({
      timeline: expect.objectContaining({ id: timelineId, title: "Open Sea", accessLevel: "collaborator", isOwner: false }),
      accessMode: "collaborator",
    });
    expect(joined.json.timeline).not.toHaveProperty("shareCode");
    expect(await inList(guest.token, timelineId)).toBe(true);
    expect((await call("GET", `/api/timelines/${timelineId}/events`, { token: guest.token })).json.map((e: any) => e.title)).toEqual([
      "Landfall",
    ]);
    const shares = await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token });
    expect(shares.json).toEqual([expect.objectContaining({ sharedWithUserId: guest.user.id, accessLevel: "collaborator" })]);
    // Joining again changes nothing.
    expect(await join(code, guest.token)).toMatchObject({ status: 200, json: { accessMode: "collaborator" } });
    expect((await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token })).json).toHaveLength(1);
  });

  it("the owner joins nothing; a viewer by email is raised by a collaborator link, a collaborator never lowered by a viewer link", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const code = await linkFor(timelineId, owner.token, "collaborator");
    expect(await join(code, owner.token)).toMatchObject({ status: 200, json: { accessMode: "owner", timeline: { isOwner: true } } });
    const viewer = await registerUser();
    const collab = await registerUser();
    await shareByEmail(timelineId, owner.token, viewer.email, "viewer");
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    expect((await join(code, viewer.token)).json.accessMode).toBe("collaborator");
    await linkFor(timelineId, owner.token, "viewer");
    expect((await join(code, collab.token)).json.accessMode).toBe("collaborator");
    const levels = await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token });
    expect(Object.fromEntries(levels.json.map((s: any) => [s.sharedWithUserId, s.accessLevel]))).toEqual({
      [viewer.user.id]: "collaborator",
      [collab.user.id]: "collaborator",
    });
    expect(await inList(owner.token, timelineId)).toBe(true);
  });

  it("a turned-off, reset or unknown link joins nothing (404), signed out is 401", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const guest = await registerUser();
    const first = await linkFor(timelineId, owner.token);
    expect((await call("POST", `/api/timelines/${timelineId}/share/reset`, { token: owner.token })).status).toBe(200);
    expect(await join(first, guest.token)).toMatchObject({ status: 404, json: NOT_FOUND });
    const second = (await call("GET", `/api/timelines/${timelineId}/share`, { token: owner.token })).json.shareCode;
    expect((await call("DELETE", `/api/timelines/${timelineId}/share`, { token: owner.token })).status).toBe(200);
    expect(await join(second, guest.token)).toMatchObject({ status: 404, json: NOT_FOUND });
    expect(await join("not-a-real-code", guest.token)).toMatchObject({ status: 404, json: NOT_FOUND });
    expect(await join("x".repeat(65), guest.token)).toMatchObject({ status: 404, json: NOT_FOUND });
    expect((await join(second)).status).toBe(401);
    expect(await inList(guest.token, timelineId)).toBe(false);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM timeline_shares WHERE timeline_id = ?").bind(timelineId).first();
    expect(rows).toEqual({ n: 0 });
  });

  it("reading the link for the Share dialog creates none", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    for (let i = 0; i < 2; i++) {
      expect((await call("GET", `/api/timelines/${timelineId}/share`, { token: owner.token })).json).toEqual({
        shareCode: null,
        role: "collaborator",
        off: false,
      });
    }
    expect(await env.DB.prepare("SELECT share_code FROM timelines WHERE id = ?").bind(timelineId).first()).toEqual({ share_code: null });
  });
});

describe("reset link", () => {
  it("the old code is dead on every path; the new one works; link joiners lose access, named shares keep theirs", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const event = await createEvent(owner.token, timelineId, { title: "Kept" });
    const oldCode = await linkFor(timelineId, owner.token);
    const joiner = await registerUser({ name: "Jo Joiner" });
    const named = await registerUser({ name: "Nia Named" });
    const fresh = await registerUser({ name: "Fay Fresh" });
    await shareByEmail(timelineId, owner.token, named.email, "collaborator");
    expect((await join(oldCode, joiner.token)).status).toBe(200);
    expect((await join(oldCode, named.token)).status).toBe(200);

    const j = await connect(timelineId, joiner.token, oldCode);
    const n = await connect(timelineId, named.token, oldCode);
    const o = await connect(timelineId, owner.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 3, "3 present");

    // Only the owner may reset.
    expect((await call("POST", `/api/timelines/${timelineId}/share/reset`, { token: named.token })).status).toBe(403);
    expect((await call("POST", `/api/timelines/${timelineId}/share/reset`, { token: fresh.token })).status).toBe(404);
    expect((await call("POST", `/api/timelines/${timelineId}/share/reset`)).status).toBe(401);
    expect((await call("POST", `/api/timelines/abc/share/reset`, { token: owner.token })).json).toEqual(NOT_FOUND);

    const reset = await call("POST", `/api/timelines/${timelineId}/share/reset`, { token: owner.token });
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual({ shareCode: expect.stringMatching(/^[\w-]{12,}$/), role: "collaborator" });
    const newCode = reset.json.shareCode as string;
    expect(newCode).not.toBe(oldCode);

    // The joiner's socket closes at once (access removed); the named collaborator reconnects (access changed).
    expect(await closedWith(j)).toBe(4403);
    expect(await closedWith(n)).toBe(4409);
    expect(o.closed.code).toBeUndefined();

    // The old code opens nothing anywhere, for the joiner and for someone who never used it.
    expectAllRefused(await pathsWithCode(timelineId, event.id, oldCode, joiner.token));
    expectAllRefused(await pathsWithCode(timelineId, event.id, oldCode, fresh.token));
    // The joiner's access through the old link is gone; the writer shared by email keeps theirs.
    expect((await call("GET", `/api/timelines/${timelineId}/events`, { token: joiner.token })).status).toBe(404);
    expect((await call("GET", "/api/timelines", { token: joiner.token })).json.some((t: any) => t.id === timelineId)).toBe(false);
    expect((await call("GET", `/api/timelines/${timelineId}/events`, { token: named.token })).status).toBe(200);
    expect((await upgrade(`/ws/${timelineId}?share=${oldCode}`, named.token)).status).toBe(101);
    const list = await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token });
    expect(list.json.map((s: any) => s.sharedWithUserId)).toEqual([named.user.id]);

    // The new link works for anyone it is given to.
    const opened = await call("GET", `/api/timelines/shared/${newCode}`, { token: fresh.token });
    expect(opened).toMatchObject({ status: 200, json: { accessMode: "collaborator", timeline: { id: timelineId } } });
    expect((await call("GET", `/api/timelines/${timelineId}/share`, { token: owner.token })).json).toEqual({
      shareCode: newCode,
      role: "collaborator",
      off: false,
    });
    // The event the old code tried to edit is untouched.
    const events = await call("GET", `/api/timelines/${timelineId}/events`, { token: owner.token });
    expect(events.json.map((e: any) => e.title)).toEqual(["Kept"]);
    o.ws.close();
  });
});

describe("turn off link", () => {
  it("no code at all until the owner creates a link again; any owner may turn it off", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const event = await createEvent(owner.token, timelineId);
    expect((await call("GET", `/api/timelines/${timelineId}/share`, { token: owner.token })).json).toEqual({
      shareCode: null,
      role: "collaborator",
      off: false,
    });
    const code = await linkFor(timelineId, owner.token, "viewer");
    const joiner = await registerUser();
    expect((await join(code, joiner.token)).json.accessMode).toBe("viewer");
    const j = await connect(timelineId, joiner.token, code);
    await j.waitFor((m) => m.type === "presence");

    expect((await call("DELETE", `/api/timelines/${timelineId}/share`, { token: joiner.token })).status).toBe(403);
    // Revoking needs no Premium: the owner's plan lapsed.
    await env.DB.prepare("UPDATE users SET subscription_tier = 'free' WHERE id = ?").bind(owner.user.id).run();
    const off = await call("DELETE", `/api/timelines/${timelineId}/share`, { token: owner.token });
    expect(off).toMatchObject({ status: 200, json: { shareCode: null, role: "viewer", off: true } });
    expect(await closedWith(j)).toBe(4403);
    expectAllRefused(await pathsWithCode(timelineId, event.id, code, joiner.token));
    expect((await call("GET", `/api/timelines/${timelineId}/share`, { token: owner.token })).json).toEqual({
      shareCode: null,
      role: "viewer",
      off: true,
    });
    const row = await env.DB.prepare("SELECT share_code FROM timelines WHERE id = ?").bind(timelineId).first();
    expect(row).toEqual({ share_code: null });
    // Turning it off again changes nothing; resetting needs Premium like creating.
    expect((await call("DELETE", `/api/timelines/${timelineId}/share`, { token: owner.token })).status).toBe(200);
    expect((await call("POST", `/api/timelines/${timelineId}/share/reset`, { token: owner.token })).status).toBe(403);

    // Creating a link again gives a new code.
    await env.DB.prepare("UPDATE users SET subscription_tier = 'premium' WHERE id = ?").bind(owner.user.id).run();
    const again = await linkFor(timelineId, owner.token);
    expect(again).not.toBe(code);
    expect((await call("GET", `/api/timelines/shared/${again}`, { token: joiner.token })).status).toBe(200);
  });
});

describe("removing a writer is for good while the link stays the same", () => {
  it("the same link does not re-add them on any path; after a reset the new link can", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const event = await createEvent(owner.token, timelineId);
    const code = await linkFor(timelineId, owner.token);
    const guest = await registerUser({ name: "Gus Guest" });
    const bystander = await registerUser();
    expect((await join(code, guest.token)).status).toBe(200);
    const g = await connect(timelineId, guest.token, code);
    await g.waitFor((m) => m.type === "presence");

    const removed = await call("DELETE", `/api/timelines/${timelineId}/shares/${guest.user.id}`, { token: owner.token });
    expect(removed.status).toBe(200);
    expect(await closedWith(g)).toBe(4403);

    expectAllRefused(await pathsWithCode(timelineId, event.id, code, guest.token));
    // Still no row after all those attempts, and the owner's list stays empty.
    expect((await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token })).json).toEqual([]);
    // The link itself still works for everyone else.
    expect((await call("GET", `/api/timelines/shared/${code}`, { token: bystander.token })).status).toBe(200);
    // Removing someone who has no share is still a 404, and remembers nothing.
    const stranger = await registerUser();
    expect((await call("DELETE", `/api/timelines/${timelineId}/shares/${stranger.user.id}`, { token: owner.token })).status).toBe(404);
    expect((await call("GET", `/api/timelines/shared/${code}`, { token: stranger.token })).status).toBe(200);

    // The owner may still share with them by name.
    await shareByEmail(timelineId, owner.token, guest.email, "viewer");
    expect((await call("GET", `/api/timelines/${timelineId}/events`, { token: guest.token })).status).toBe(200);
    await call("DELETE", `/api/timelines/${timelineId}/shares/${guest.user.id}`, { token: owner.token });
    expect((await call("GET", `/api/timelines/shared/${code}`, { token: guest.token })).status).toBe(404);

    // A reset link is a new link: it can bring them back.
    const reset = await call("POST", `/api/timelines/${timelineId}/share/reset`, { token: owner.token });
    const back = await join(reset.json.shareCode, guest.token);
    expect(back).toMatchObject({ status: 200, json: { accessMode: "collaborator" } });
    expect((await call("GET", `/api/timelines/${timelineId}/events`, { token: guest.token })).status).toBe(200);
  });
});

describe("changing the link's access level applies live", () => {
  it("link joiners are downgraded (socket closed, writes 403) and upgraded (edits relayed at once)", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const event = await createEvent(owner.token, timelineId, { title: "Scene" });
    const code = await linkFor(timelineId, owner.token, "collaborator");
    const joiner = await registerUser({ name: "Jo Joiner" });
    const named = await registerUser({ name: "Nia Named" });
    await shareByEmail(timelineId, owner.token, named.email, "collaborator");
    expect((await join(code, joiner.token)).json.accessMode).toBe("collaborator");
    expect((await createEvent(joiner.token, timelineId, { title: "By the joiner" })).title).toBe("By the joiner");

    const o = await connect(timelineId, owner.token);
    const j = await connect(timelineId, joiner.token, code);
    const n = await connect(timelineId, named.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 3, "3 present");

    // collaborator → viewer
    expect((await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } })).json).toEqual({
      shareCode: code,
      role: "viewer",
    });
    expect(await closedWith(j)).toBe(4409);
    await sleep(50);
    expect(n.closed.code).toBeUndefined();
    expect(o.closed.code).toBeUndefined();
    const write = (token: string, share?: string) =>
      call("POST", `/api/timelines/${timelineId}/events${share ? `?share=${share}` : ""}`, { token, body: { title: "t", content: "c" } });
    expect(await write(joiner.token)).toMatchObject({ status: 403, json: { error: "You have view-only access to this timeline" } });
    expect((await write(joiner.token, code)).status).toBe(403);
    expect((await call("PATCH", `/api/events/${event.id}?share=${code}`, { token: joiner.token, body: { title: "no" } })).status).toBe(403);
    expect((await write(named.token)).status).toBe(201);
    const shares = await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token });
    expect(Object.fromEntries(shares.json.map((s: any) => [s.sharedWithUserId, s.accessLevel]))).toEqual({
      [joiner.user.id]: "viewer",
      [named.user.id]: "collaborator",
    });

    // Reconnecting, the joiner is a viewer: their typing is dropped.
    const j2 = await connect(timelineId, joiner.token, code);
    await o.waitFor((m) => m.type === "presence" && lastPresence([m]).some((u: any) => u.userName === "Jo Joiner"), "joiner back");
    expect(lastPresence(o.messages).find((u: any) => u.userName === "Jo Joiner")).toMatchObject({ accessMode: "viewer" });
    o.clear();
    j2.send({ type: "change", eventId: event.id, change: { type: "content", value: "sneaky" } });
    expect((await j2.waitFor((m) => m.type === "error")).error).toBe("Viewers cannot edit this timeline");
    await sleep(50);
    expect(o.messages.some((m) => m.type === "change")).toBe(false);

    // viewer → collaborator: the open socket may edit at once, no reconnect needed.
    await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "collaborator" } });
    await o.waitFor(
      (m) => m.type === "presence" && lastPresence([m]).some((u: any) => u.userName === "Jo Joiner" && u.accessMode === "collaborator"),
    );
    j2.send({ type: "change", eventId: event.id, change: { type: "content", value: "allowed now" } });
    const relayed = await o.waitFor((m) => m.type === "change", "relayed change");
    expect(relayed).toMatchObject({ userId: joiner.user.id, change: { type: "content", value: "allowed now" } });
    expect(j2.closed.code).toBeUndefined();
    expect((await write(joiner.token)).status).toBe(201);

    // Asking for the same level again tells nobody anything.
    j2.clear();
    await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "collaborator" } });
    await sleep(200);
    expect(j2.messages.filter((m) => m.type === "sync")).toEqual([]);
    for (const r of [o, j2, n]) r.ws.close();
  });
});
