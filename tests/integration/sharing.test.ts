import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, markVerified, premiumOwnerWithTimeline, registerUser, shareByEmail } from "./helpers";

const PREMIUM_ONLY = "Sharing is a premium feature. Upgrade to Premium to share timelines.";

describe("share link", () => {
  it("premium owners only: free owner 403, collaborator 403, stranger 404, anonymous 401", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser();
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const stranger = await registerUser();
    const free = await registerUser();
    const freeTimeline = await createTimeline(free.token);

    const link = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: {} });
    expect(link.status).toBe(200);
    expect(link.json).toMatchObject({ role: "collaborator" });
    expect(link.json.shareCode).toMatch(/^[\w-]{12,}$/);

    expect((await call("POST", `/api/timelines/${freeTimeline.id}/share`, { token: free.token, body: {} })).json).toEqual({
      error: PREMIUM_ONLY,
    });
    expect((await call("POST", `/api/timelines/${timelineId}/share`, { token: collab.token, body: {} })).status).toBe(403);
    expect((await call("POST", `/api/timelines/${timelineId}/share`, { token: stranger.token, body: {} })).status).toBe(404);
    expect((await call("POST", `/api/timelines/${timelineId}/share`, { body: {} })).status).toBe(401);
    const bad = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "owner" } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: "Access level must be viewer or collaborator" });
  });

  it("opening by code returns timeline, events, isShared and the link's access mode", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Linked story");
    await createEvent(owner.token, timelineId, { title: "First" });
    const { shareCode } = (await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } })).json;
    const guest = await registerUser();
    const opened = await call("GET", `/api/timelines/shared/${shareCode}`, { token: guest.token });
    expect(opened.status).toBe(200);
    expect(opened.json).toMatchObject({ timeline: { id: timelineId, title: "Linked story" }, isShared: true, accessMode: "viewer" });
    expect(opened.json.events.map((e: any) => e.title)).toEqual(["First"]);
    expect(opened.json.timeline).not.toHaveProperty("shareCode");

    // The code grants exactly the link's role.
    expect(
      (
        await call("POST", `/api/timelines/${timelineId}/events?share=${shareCode}`, {
          token: guest.token,
          body: { title: "x", content: "y" },
        })
      ).status,
    ).toBe(403);
    expect((await call("GET", "/api/timelines/shared/not-a-real-code", { token: guest.token })).json).toEqual({
      error: "Timeline not found",
    });
    expect((await call("GET", `/api/timelines/shared/${shareCode}`)).status).toBe(401);
  });
});

describe("share with a user", () => {
  it("shares by email (any case), lists, and tells the recipient once", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Named story");
    const friend = await registerUser({ name: "Fern Friend" });
    await markVerified(friend.email);
    const res = await call("POST", `/api/timelines/${timelineId}/share-with-user`, {
      token: owner.token,
      body: { userEmail: `  ${friend.email.toUpperCase()} ` },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ sharedWithUserId: friend.user.id, sharedWithUserEmail: friend.email, accessLevel: "viewer" });

    const list = await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token });
    expect(list.json).toEqual([
      expect.objectContaining({
        sharedWithUserId: friend.user.id,
        sharedWithUserName: "Fern Friend",
        sharedWithUserEmail: friend.email,
        accessLevel: "viewer",
      }),
    ]);
    const notes = await env.DB.prepare("SELECT message, read FROM notifications WHERE user_id = ?").bind(friend.user.id).all();
    expect(notes.results).toEqual([{ message: 'Olive Owner shared "Named story" with you', read: 0 }]);

    // Sharing again updates the level instead of duplicating.
    await shareByEmail(timelineId, owner.token, friend.email, "collaborator");
    const again = await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token });
    expect(again.json).toHaveLength(1);
    expect(again.json[0].accessLevel).toBe("collaborator");

    const listed = await call("GET", "/api/timelines", { token: friend.token });
    expect(listed.json.find((t: any) => t.id === timelineId)).toMatchObject({
      isShared: true,
      isOwner: false,
      accessLevel: "collaborator",
    });
  });

  it("unknown email 404, yourself 400, bad input 400, non-owners refused", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser();
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const post = (token: string, body: unknown) => call("POST", `/api/timelines/${timelineId}/share-with-user`, { token, body });

    expect(await post(owner.token, { userEmail: "nobody-here@example.test" })).toMatchObject({
      status: 404,
      json: { error: "No user found with that email address" },
    });
    expect(await post(owner.token, { userEmail: owner.email })).toMatchObject({
      status: 400,
      json: { error: "You cannot share a timeline with yourself" },
    });
    expect(await post(owner.token, { userEmail: "not-an-email" })).toMatchObject({
      status: 400,
      json: { error: "Please enter a valid email address" },
    });
    expect(await post(owner.token, { userEmail: collab.email, accessLevel: "admin" })).toMatchObject({ status: 400 });
    expect((await post(collab.token, { userEmail: owner.email })).status).toBe(403);
    expect((await call("GET", `/api/timelines/${timelineId}/shares`, { token: collab.token })).status).toBe(403);
  });

  it("a free owner cannot share; an unnamed recipient is listed as 'Unnamed User'", async () => {
    const free = await registerUser();
    const t = await createTimeline(free.token);
    const other = await registerUser();
    const res = await call("POST", `/api/timelines/${t.id}/share-with-user`, { token: free.token, body: { userEmail: other.email } });
    expect(res).toMatchObject({ status: 403, json: { error: PREMIUM_ONLY } });

    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const unnamed = await registerUser();
    await env.DB.prepare("UPDATE users SET name = NULL WHERE id = ?").bind(unnamed.user.id).run();
    await shareByEmail(timelineId, owner.token, unnamed.email, "viewer");
    const list = await call("GET", `/api/timelines/${timelineId}/shares`, { token: owner.token });
    expect(list.json[0].sharedWithUserName).toBe("Unnamed User");
  });

  it("removing a share ends access at once", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser();
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const event = await createEvent(collab.token, timelineId, { title: "Theirs" });
    expect(event.title).toBe("Theirs");

    expect((await call("DELETE", `/api/timelines/${timelineId}/shares/${collab.user.id}`, { token: collab.token })).status).toBe(403);
    const removed = await call("DELETE", `/api/timelines/${timelineId}/shares/${collab.user.id}`, { token: owner.token });
    expect(removed.status).toBe(200);
    expect((await call("GET", `/api/timelines/${timelineId}/events`, { token: collab.token })).status).toBe(404);
    expect((await call("GET", "/api/timelines", { token: collab.token })).json.some((t: any) => t.id === timelineId)).toBe(false);
    expect((await call("DELETE", `/api/timelines/${timelineId}/shares/${collab.user.id}`, { token: owner.token })).json).toEqual({
      error: "Share not found",
    });
  });
});
