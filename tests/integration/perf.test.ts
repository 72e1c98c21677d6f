import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import worker from "../../worker/index";
import { FIRST_SCREEN_EVENTS, listEventsPage } from "../../worker/services/events";
import { ORIGIN, call, createEvent, createTimeline, makePremium, registerUser, shareByEmail } from "./helpers";

type User = Awaited<ReturnType<typeof registerUser>>;

/** A GET as `token`, optionally conditional on `etag`. */
const get = (path: string, token: string, etag?: string | null) =>
  call("GET", path, { token, headers: etag ? { "If-None-Match": etag } : {} });

/** The ETag of `path` now; asserts the 200 carries a weak validator and may be kept only privately. */
async function etagOf(path: string, token: string) {
  const res = await get(path, token);
  expect(res.status, res.text).toBe(200);
  const etag = res.headers.get("ETag");
  expect(etag).toMatch(/^W\/"[^"]+"$/);
  expect(res.headers.get("Cache-Control")).toBe("private, no-cache");
  return etag as string;
}

/** Proves `path`'s ETag changes with `write` (and the old one no longer answers 304). */
async function expectChangedBy(path: string, token: string, write: () => Promise<unknown>) {
  const before = await etagOf(path, token);
  expect((await get(path, token, before)).status).toBe(304);
  await write();
  const after = await etagOf(path, token);
  expect(after).not.toBe(before);
  const stale = await get(path, token, before);
  expect(stale.status).toBe(200);
  expect((await get(path, token, after)).status).toBe(304);
}

const ok = async (res: Promise<{ status: number; text: string }>, status = 200) => {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r;
};

let owner: User;
let friend: User;
beforeAll(async () => {
  [owner, friend] = await Promise.all([registerUser({ name: "Olive Owner" }), registerUser({ name: "Finn Friend" })]);
  await makePremium(owner.user.id);
});

describe("ETag and 304 on the events and timelines reads", () => {
  it("answers 304 with no body to a matching If-None-Match, 200 with the body otherwise", async () => {
    const tl = await createTimeline(owner.token, { title: "Conditional" });
    await createEvent(owner.token, tl.id, { title: "One" });
    for (const path of [`/api/timelines/${tl.id}/events`, `/api/timelines/${tl.id}`, "/api/timelines"]) {
      const first = await get(path, owner.token);
      expect(first.status).toBe(200);
      const etag = first.headers.get("ETag");
      expect(etag, path).toMatch(/^W\/"[^"]+"$/);
      expect(first.headers.get("Vary")).toContain("Authorization");

      const again = await get(path, owner.token, etag);
      expect(again.status, path).toBe(304);
      expect(again.text).toBe("");
      expect(again.headers.get("ETag")).toBe(etag);
      // A list of validators, and the strong form of our weak one, match too (RFC 9110 weak comparison).
      expect((await get(path, owner.token, `"nope", ${etag}`)).status).toBe(304);
      expect((await get(path, owner.token, etag?.replace(/^W\//, ""))).status).toBe(304);

      const other = await get(path, owner.token, 'W/"something-else"');
      expect(other.status).toBe(200);
      expect(other.json).toEqual(first.json);
    }
  });

  it("sends the events list gzipped once to clients that take gzip (the same JSON), as it is to others", async () => {
    const tl = await createTimeline(owner.token, { title: "Compressed" });
    for (let i = 0; i < 40; i++) await createEvent(owner.token, tl.id, { title: `Scene ${i}`, content: "The tide turns. ".repeat(20) });
    const path = `/api/timelines/${tl.id}/events`;
    const plain = await get(path, owner.token);
    expect(plain.headers.get("Content-Encoding")).toBeNull();
    expect(plain.json).toHaveLength(40);
    for (let i = 0; i < 2; i++) {
      const ctx = createExecutionContext();
      const request = new Request(ORIGIN + path, { headers: { Authorization: `Bearer ${owner.token}`, "Accept-Encoding": "br, gzip" } });
      const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Encoding")).toBe("gzip");
      expect(res.headers.get("Vary")).toContain("Accept-Encoding");
      expect(res.headers.get("ETag")).toBe(plain.headers.get("ETag"));
      const zipped = new Uint8Array(await res.arrayBuffer());
      expect(zipped.byteLength).toBeLessThan(plain.text.length / 5);
      const text = await new Response(new Blob([zipped]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
      expect(text).toBe(plain.text);
    }
  });

  it("changes the events ETag on every write: add, edit, reorder, codex links, story time, delete", async () => {
    const tl = await createTimeline(owner.token, { title: "Every write" });
    await expectChangedBy(`/api/timelines/${tl.id}/events`, owner.token, () => createEvent(owner.token, tl.id, { title: "First" }));
    const a = await createEvent(owner.token, tl.id, { title: "A" });
    const b = await createEvent(owner.token, tl.id, { title: "B" });
    const path = `/api/timelines/${tl.id}/events`;
    const entity = (
      await ok(call("POST", `/api/timelines/${tl.id}/entities`, { token: owner.token, body: { kind: "character", name: "Mara" } }), 201)
    ).text;
    const entityId = JSON.parse(entity).id as number;

    const c = await createEvent(owner.token, tl.id, { title: "C" });
    await expectChangedBy(path, owner.token, () => ok(call("PATCH", `/api/events/${a.id}`, { token: owner.token, body: { title: "A2" } })));
    await expectChangedBy(path, owner.token, () => ok(call("PATCH", `/api/events/${b.id}`, { token: owner.token, body: { position: 0 } })));
    await expectChangedBy(path, owner.token, () =>
      ok(call("PATCH", `/api/events/${a.id}`, { token: owner.token, body: { entityIds: [entityId] } })),
    );
    await expectChangedBy(path, owner.token, () =>
      ok(call("PATCH", `/api/events/${a.id}`, { token: owner.token, body: { storyStart: "2024-03" } })),
    );
    // Deleting the linked entity removes the link from the event: the list changes.
    await expectChangedBy(path, owner.token, () => ok(call("DELETE", `/api/entities/${entityId}`, { token: owner.token })));
    await expectChangedBy(path, owner.token, () => ok(call("DELETE", `/api/events/${b.id}`, { token: owner.token })));

    // The chronological order is its own representation (C's story date puts it before A there).
    await expectChangedBy(path, owner.token, () =>
      ok(call("PATCH", `/api/events/${c.id}`, { token: owner.token, body: { storyStart: "1999" } })),
    );
    const byPosition = await etagOf(path, owner.token);
    const chronological = await etagOf(`${path}?order=chronological`, owner.token);
    expect(chronological).not.toBe(byPosition);
  });

  it("changes the events ETag and body on attachments, restores and any direct write (the revision is bumped by triggers)", async () => {
    const tl = await createTimeline(owner.token, { title: "Every writer" });
    const ev = await createEvent(owner.token, tl.id, { title: "Draft" });
    const path = `/api/timelines/${tl.id}/events`;
    const listed = async () => (await get(path, owner.token)).json as Array<{ id: number; title: string; attachments: { id: number }[] }>;

    // An attachment added, then removed.
    const form = new FormData();
    form.append("file", new Blob([new TextEncoder().encode("notes")], { type: "text/plain" }), "notes.txt");
    let file = { id: 0 };
    await expectChangedBy(path, owner.token, async () => {
      const headers = { Authorization: `Bearer ${owner.token}` };
      const ctx = createExecutionContext();
      const request = new Request(`${ORIGIN}/api/events/${ev.id}/attachments`, { method: "POST", headers, body: form });
      const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(201);
      file = (await res.json()) as { id: number };
    });
    expect((await listed())[0].attachments.map((a) => a.id)).toEqual([file.id]);
    await expectChangedBy(path, owner.token, () => ok(call("DELETE", `/api/attachments/${file.id}`, { token: owner.token })));
    expect((await listed())[0].attachments).toEqual([]);

    // A version restore.
    await ok(call("PATCH", `/api/events/${ev.id}`, { token: owner.token, body: { title: "Second" } }));
    const versions = JSON.parse((await ok(call("GET", `/api/events/${ev.id}/versions`, { token: owner.token }))).text) as Array<{
      id: number;
    }>;
    await expectChangedBy(path, owner.token, () =>
      ok(call("POST", `/api/event-versions/${versions.at(-1)?.id}/restore`, { token: owner.token })),
    );
    expect((await listed())[0].title).toBe("Draft");

    // A writer outside the services (as the co-writing Durable Object saves text): plain SQL is enough.
    await expectChangedBy(path, owner.token, () =>
      env.DB.prepare("UPDATE events SET title = 'From elsewhere', version = version + 1 WHERE id = ?").bind(ev.id).run(),
    );
    expect((await listed())[0].title).toBe("From elsewhere");
    await expectChangedBy(path, owner.token, () => env.DB.prepare("DELETE FROM events WHERE id = ?").bind(ev.id).run());
    expect(await listed()).toEqual([]);

    // Another timeline's writes leave this list's validator alone.
    const quiet = await etagOf(path, owner.token);
    const other = await createTimeline(owner.token, { title: "Elsewhere" });
    await createEvent(owner.token, other.id, { title: "Unrelated" });
    expect((await get(path, owner.token, quiet)).status).toBe(304);
  });

  it("changes the timeline and list ETags on edits and on share changes the caller sees", async () => {
    const tl = await createTimeline(owner.token, { title: "Shared later" });
    await expectChangedBy(`/api/timelines/${tl.id}`, owner.token, () =>
      ok(call("PATCH", `/api/timelines/${tl.id}`, { token: owner.token, body: { title: "Renamed" } })),
    );
    await expectChangedBy("/api/timelines", owner.token, () =>
      ok(call("PATCH", `/api/timelines/${tl.id}`, { token: owner.token, body: { description: "Now with a description" } })),
    );
    // Sharing flips isShared for the owner (timeline and list) and adds the timeline to the friend's list.
    const friendList = await etagOf("/api/timelines", friend.token);
    await expectChangedBy(`/api/timelines/${tl.id}`, owner.token, () => shareByEmail(tl.id, owner.token, friend.email, "viewer"));
    const friendListAfter = await etagOf("/api/timelines", friend.token);
    expect(friendListAfter).not.toBe(friendList);
    expect((await get("/api/timelines", friend.token, friendList)).status).toBe(200);

    // Raising the friend to collaborator changes what they see (accessLevel) and so their ETag.
    const asViewer = await etagOf(`/api/timelines/${tl.id}`, friend.token);
    await shareByEmail(tl.id, owner.token, friend.email, "collaborator");
    const asCollaborator = await etagOf(`/api/timelines/${tl.id}`, friend.token);
    expect(asCollaborator).not.toBe(asViewer);

    // Removing the share: the friend's old validator earns a 404, never a 304.
    await ok(call("DELETE", `/api/timelines/${tl.id}/shares/${friend.user.id}`, { token: owner.token }));
    const gone = await get(`/api/timelines/${tl.id}`, friend.token, asCollaborator);
    expect(gone.status).toBe(404);
    expect(gone.json).toEqual({ error: "Timeline not found" });
    expect((await get("/api/timelines", friend.token, friendListAfter)).status).toBe(200);
  });

  it("reads a list's session and timeline access in one round trip to D1, for the right writer only", async () => {
    const tl = await createTimeline(owner.token, { title: "One trip" });
    await createEvent(owner.token, tl.id, { title: "Harbour" });
    const path = `/api/timelines/${tl.id}/events`;
    const timed = async (token: string | null, etag?: string) => {
      const ctx = createExecutionContext();
      const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
      if (etag) headers["If-None-Match"] = etag;
      const request = new Request(ORIGIN + path, { headers });
      const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, SERVER_TIMING: "1" }, ctx);
      await waitOnExecutionContext(ctx);
      const trips = res.headers.get("Server-Timing")?.match(/statements=(\d+) roundtrips=(\d+)/);
      return { res, statements: Number(trips?.[1]), roundTrips: Number(trips?.[2]), text: await res.text() };
    };
    const first = await timed(owner.token);
    expect(first.res.status).toBe(200);
    // Cached now: the session and the access (two statements) are the whole request, in one batch.
    const again = await timed(owner.token);
    expect(again.res.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect({ statements: again.statements, roundTrips: again.roundTrips }).toEqual({ statements: 2, roundTrips: 1 });
    const etag = again.res.headers.get("ETag") as string;
    expect((await timed(owner.token, etag)).res.status).toBe(304);
    // The batch decides for the session's own writer: a stranger's session gets 404, a collaborator the list.
    const stranger = await timed(friend.token, etag);
    expect(stranger.res.status).toBe(404);
    expect(JSON.parse(stranger.text)).toEqual({ error: "Timeline not found" });
    const reader = await registerUser();
    await shareByEmail(tl.id, owner.token, reader.email, "viewer");
    const shared = await timed(reader.token);
    expect(shared.res.status).toBe(200);
    expect(shared.text).toBe(first.text);
    // A forged token, an ended session and no session: 401, whatever the timeline.
    expect((await timed("forged-token-that-names-no-session")).res.status).toBe(401);
    await call("POST", "/api/auth/logout", { token: reader.token });
    expect((await timed(reader.token)).res.status).toBe(401);
    expect((await timed(null)).res.status).toBe(401);
    // A path that only looks like a list still goes the usual way.
    expect((await call("GET", `/api/timelines/${tl.id}/events/`, { token: owner.token })).status).not.toBe(500);
  });

  it("never answers 304 to a caller without access, nor without a session", async () => {
    const tl = await createTimeline(owner.token, { title: "Private" });
    const path = `/api/timelines/${tl.id}/events`;
    const etag = await etagOf(path, owner.token);
    const stranger = await get(path, friend.token, etag);
    expect(stranger.status).toBe(404);
    expect(stranger.json).toEqual({ error: "Timeline not found" });
    const anonymous = await call("GET", path, { headers: { "If-None-Match": etag } });
    expect(anonymous.status).toBe(401);
  });
});

describe("the first screenful of a timeline (listEventsPage)", () => {
  it("returns the first events of the view with the view's and the timeline's counts", async () => {
    const tl = await createTimeline(owner.token, { title: "Paged" });
    for (let i = 0; i < 30; i++) await createEvent(owner.token, tl.id, { title: `Scene ${i + 1}` });
    const db = createDb(env.DB);
    const page = await listEventsPage(db, tl.id, {});
    expect(page.total).toBe(30);
    expect(page.all).toBe(30);
    expect(page.events.map((e) => e.title)).toEqual(Array.from({ length: FIRST_SCREEN_EVENTS }, (_, i) => `Scene ${i + 1}`));

    const entity = JSON.parse(
      (await ok(call("POST", `/api/timelines/${tl.id}/entities`, { token: owner.token, body: { kind: "place", name: "Harbour" } }), 201))
        .text,
    );
    const list = (await get(`/api/timelines/${tl.id}/events`, owner.token)).json as Array<{ id: number; title: string }>;
    for (const e of [list[3], list[27]]) {
      await ok(call("PATCH", `/api/events/${e.id}`, { token: owner.token, body: { entityIds: [entity.id], storyStart: "1200" } }));
    }
    await ok(call("PATCH", `/api/events/${list[29].id}`, { token: owner.token, body: { storyStart: "900" } }));
    const filtered = await listEventsPage(db, tl.id, { entityId: entity.id });
    expect(filtered).toMatchObject({ total: 2, all: 30 });
    expect(filtered.events.map((e) => e.title)).toEqual(["Scene 4", "Scene 28"]);
    const chronological = await listEventsPage(db, tl.id, { order: "chronological", limit: 4 });
    expect(chronological.events.map((e) => e.title)).toEqual(["Scene 30", "Scene 4", "Scene 28", "Scene 1"]);
    expect(chronological).toMatchObject({ total: 30, all: 30 });
  });
});
