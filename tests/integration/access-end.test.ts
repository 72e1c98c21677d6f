import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/lib/crypto";
import { type DocClient, openDoc, waitUntil } from "./doc-helpers";
import { call, createEvent, premiumOwnerWithTimeline, registerUser, shareByEmail } from "./helpers";
import { closedWith, connect, sleep } from "./room-helpers";

// When a writer's access ends or shrinks, their room and doc sockets close within a second, and nothing they
// send after that moment is applied, relayed or saved. Real Yjs clients and room sockets through the Worker.

const stored = async (eventId: number) =>
  (await env.DB.prepare("SELECT title, content, version FROM events WHERE id = ?").bind(eventId).first()) as {
    title: string;
    content: string;
    version: number;
  };
const versionsOf = async (eventId: number) =>
  (await env.DB.prepare("SELECT title, content FROM event_versions WHERE event_id = ? ORDER BY id").bind(eventId).all()).results as Array<{
    title: string;
    content: string;
  }>;

/** An owner and a collaborator (shared by email, or joined through the link) both in one event's doc and the room. */
async function scene(via: "email" | "link" = "email") {
  const { owner, timelineId } = await premiumOwnerWithTimeline();
  const event = await createEvent(owner.token, timelineId, { title: "The storm", content: "The storm breaks." });
  const collab = await registerUser({ name: "Cole Collab" });
  let code: string | undefined;
  if (via === "link") {
    const link = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "collaborator" } });
    expect(link.status, link.text).toBe(200);
    code = link.json.shareCode as string;
    // Joined through the link (the row opening the link leaves behind).
    await env.DB.prepare(
      "INSERT INTO timeline_shares (timeline_id, shared_by_user_id, shared_with_user_id, access_level, via_link) VALUES (?, ?, ?, 'collaborator', 1)",
    )
      .bind(timelineId, owner.user.id, collab.user.id)
      .run();
  } else {
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
  }
  const ownerDoc = await openDoc(timelineId, event.id, owner.token);
  const doc = await openDoc(timelineId, event.id, collab.token, { share: code });
  const ownerRoom = await connect(timelineId, owner.token);
  const room = await connect(timelineId, collab.token, code);
  await ownerRoom.waitFor((m) => m.type === "presence" && m.presence.users.length === 2, "both present");
  // What the collaborator typed while they had access is theirs to keep: it is saved.
  doc.type(" Before the end.");
  await waitUntil(async () => (await stored(event.id)).content.includes("Before the end."), "typing saved", 8000);
  return { owner, collab, timelineId, event, code, ownerDoc, doc, ownerRoom, room };
}

type Scene = Awaited<ReturnType<typeof scene>>;

/**
 * Ends the collaborator's access with `act`, types into their doc right after it, and checks: both sockets
 * close within a second with the expected codes; the late typing reaches neither the owner's doc nor D1;
 * no version is written after the end.
 */
async function endsAtOnce(s: Scene, act: () => Promise<unknown>, codes: { doc: number; room: number }) {
  const before = await stored(s.event.id);
  const versions = (await versionsOf(s.event.id)).length;
  await act();
  const ended = Date.now();
  // Sent right after the access ended (the socket may not have seen its close yet).
  s.doc.type(" AFTER-THE-END");
  s.doc.doc.getText("title").insert(0, "Hijacked ");
  expect(await closedWith(s.doc, 1000)).toBe(codes.doc);
  expect(await closedWith(s.room, 1000)).toBe(codes.room);
  expect(Date.now() - ended).toBeLessThan(1000);

  // Longer than the doc's autosave debounce: anything applied would have been written by now.
  await sleep(1600);
  expect(s.ownerDoc.markdown()).not.toContain("AFTER-THE-END");
  expect(s.ownerDoc.title()).toBe(before.title);
  expect(await stored(s.event.id)).toEqual(before);
  expect((await versionsOf(s.event.id)).length).toBe(versions);
  // The owner keeps writing and leaves: D1 and every version stay free of the late typing.
  s.ownerDoc.type(" The owner writes on.");
  s.ownerDoc.close();
  await waitUntil(async () => (await stored(s.event.id)).content.includes("The owner writes on."), "owner saved", 8000);
  const row = await stored(s.event.id);
  expect(row.content).not.toContain("AFTER-THE-END");
  expect(row.title).toBe("The storm");
  for (const v of await versionsOf(s.event.id)) {
    expect(v.content).not.toContain("AFTER-THE-END");
    expect(v.title).not.toContain("Hijacked");
  }
  s.ownerRoom.ws.close();
}

describe("access ends at once, in the room and in the shared doc", () => {
  it("share removed: doc and room close (4403) within a second; nothing typed after is applied or saved", async () => {
    const s = await scene();
    await endsAtOnce(
      s,
      async () =>
        expect((await call("DELETE", `/api/timelines/${s.timelineId}/shares/${s.collab.user.id}`, { token: s.owner.token })).status).toBe(
          200,
        ),
      { doc: 4403, room: 4403 },
    );
  });

  it("downgraded to viewer: doc closes (4403), room reconnects read-only (4409); their changes are never relayed again", async () => {
    const s = await scene();
    await endsAtOnce(s, () => shareByEmail(s.timelineId, s.owner.token, s.collab.email, "viewer"), { doc: 4403, room: 4409 });
    const seen = await connect(s.timelineId, s.owner.token);
    const back = await connect(s.timelineId, s.collab.token);
    await seen.waitFor(
      (m) => m.type === "presence" && m.presence.users.some((u: any) => u.userId === s.collab.user.id && u.accessMode === "viewer"),
    );
    back.send({ type: "change", eventId: s.event.id, change: { type: "title", value: "Viewer's title" } });
    await back.waitFor((m) => m.type === "error" && m.error === "Viewers cannot edit this timeline", "refusal");
    await sleep(100);
    // (Other changes may still arrive: the doc saving what was typed before the downgrade, on a slow machine.)
    expect(seen.messages.some((m) => m.type === "change" && JSON.stringify(m).includes("Viewer's title"))).toBe(false);
    // And no doc socket opens for them any more.
    await expect(openDoc(s.timelineId, s.event.id, s.collab.token)).rejects.toThrow(/403/);
    back.ws.close();
    seen.ws.close();
  });

  it("share link reset: its writers' doc and room sockets close (4403)", async () => {
    const s = await scene("link");
    await endsAtOnce(
      s,
      async () => expect((await call("POST", `/api/timelines/${s.timelineId}/share/reset`, { token: s.owner.token })).status).toBe(200),
      { doc: 4403, room: 4403 },
    );
  });

  it("share link turned off: its writers' doc and room sockets close (4403)", async () => {
    const s = await scene("link");
    await endsAtOnce(
      s,
      async () => expect((await call("DELETE", `/api/timelines/${s.timelineId}/share`, { token: s.owner.token })).status).toBe(200),
      { doc: 4403, room: 4403 },
    );
  });

  it("share link made view-only: its writers' docs close (4403), their room reconnects read-only (4409)", async () => {
    const s = await scene("link");
    await endsAtOnce(
      s,
      async () =>
        expect(
          (await call("POST", `/api/timelines/${s.timelineId}/share`, { token: s.owner.token, body: { role: "viewer" } })).status,
        ).toBe(200),
      { doc: 4403, room: 4409 },
    );
  });

  it("logout: that session's doc and room sockets close (4401)", async () => {
    const s = await scene();
    await endsAtOnce(s, async () => expect((await call("POST", "/api/auth/logout", { token: s.collab.token })).status).toBe(200), {
      doc: 4401,
      room: 4401,
    });
  });

  it("password reset: every session's doc and room sockets close (4401)", async () => {
    const s = await scene();
    const resetToken = `reset-token-doc-${crypto.randomUUID()}`;
    await env.DB.prepare("UPDATE users SET reset_password_token = ?, reset_password_expires = ? WHERE id = ?")
      .bind(await sha256Hex(resetToken), new Date(Date.now() + 3_600_000).toISOString(), s.collab.user.id)
      .run();
    await endsAtOnce(
      s,
      async () =>
        expect((await call("POST", "/api/auth/reset-password", { body: { token: resetToken, password: "a-new-password-2" } })).status).toBe(
          200,
        ),
      { doc: 4401, room: 4401 },
    );
  });

  it("session expiry found by the room's re-check closes the doc sockets of that session too", async () => {
    const s = await scene();
    await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), await sha256Hex(s.collab.token))
      .run();
    const stub = env.TimelineRoom.get(env.TimelineRoom.idFromName(String(s.timelineId)));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await closedWith(s.room, 1000)).toBe(4401);
    expect(await closedWith(s.doc as DocClient, 1000)).toBe(4401);
    expect(s.ownerDoc.closed.code).toBeUndefined();
    s.ownerDoc.close();
    s.ownerRoom.ws.close();
  });
});
