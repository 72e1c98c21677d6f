import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { ServerMessageSchema } from "../../durable-objects/protocol";
import worker from "../../worker/index";
import { ORIGIN, call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";
import { connect, sleep } from "./room-helpers";

/** An owner's scene shared with a collaborator and a viewer, and a stranger. */
async function team() {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title: "Review" });
  const event = await createEvent(owner.token, timeline.id, { title: "The storm", content: "The storm breaks over the harbour." });
  const collab = await registerUser({ name: "Mara" });
  const viewer = await registerUser({ name: "Bea Reader" });
  const stranger = await registerUser({ name: "Stranger" });
  await shareWith(timeline.id, owner.user.id, collab.user.id, "collaborator");
  await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
  return { owner, timeline, event, collab, viewer, stranger };
}

const anchor = { from: "AQLK5rKhCQA=", to: "AQLK5rKhCQ8=", quote: "storm breaks" };
const post = (eventId: number, token: string, body: unknown) => call("POST", `/api/events/${eventId}/comments`, { token, body });

describe("comments", () => {
  it("threads with anchors and replies, in the contract's shape, for every reader", async () => {
    const { owner, event, collab, viewer, stranger } = await team();
    const first = await post(event.id, viewer.token, { body: "  Is this too abrupt?  ", anchor });
    expect(first.status, first.text).toBe(201);
    expect(first.json).toEqual({
      id: expect.any(Number),
      eventId: event.id,
      threadId: null,
      authorId: viewer.user.id,
      authorName: "Bea Reader",
      body: "Is this too abrupt?",
      anchor,
      resolved: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const reply = await post(event.id, collab.token, { body: "I like it", threadId: first.json.id });
    expect(reply.status).toBe(201);
    expect(reply.json).toMatchObject({ threadId: first.json.id, anchor: null, authorName: "Mara" });
    // A reply to a reply joins the same thread.
    const again = await post(event.id, owner.token, { body: "Agreed", threadId: reply.json.id });
    expect(again.json.threadId).toBe(first.json.id);
    const whole = await post(event.id, owner.token, { body: "The scene as a whole" });
    expect(whole.json.anchor).toBeNull();

    for (const reader of [owner, collab, viewer]) {
      const list = await call("GET", `/api/events/${event.id}/comments`, { token: reader.token });
      expect(list.status).toBe(200);
      expect(list.json.map((c: { id: number }) => c.id)).toEqual([first.json.id, reply.json.id, again.json.id, whole.json.id]);
    }
    expect((await call("GET", `/api/events/${event.id}/comments`, { token: stranger.token })).status).toBe(404);
    expect((await post(event.id, stranger.token, { body: "Hi" })).status).toBe(404);
    expect((await call("GET", `/api/events/${event.id}/comments`)).status).toBe(401);
  });

  it("viewers comment only while the owner allows it; the setting is in the timeline JSON", async () => {
    const { owner, timeline, event, collab, viewer } = await team();
    expect((await call("GET", `/api/timelines/${timeline.id}`, { token: viewer.token })).json.viewersCanComment).toBe(true);
    expect((await call("PATCH", `/api/timelines/${timeline.id}`, { token: collab.token, body: { viewersCanComment: false } })).status).toBe(
      403,
    );
    const off = await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body: { viewersCanComment: false } });
    expect(off.status).toBe(200);
    expect(off.json.viewersCanComment).toBe(false);
    const refused = await post(event.id, viewer.token, { body: "Can I?" });
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe("The owner has turned off comments for viewers");
    // Reading stays; editors still comment.
    expect((await call("GET", `/api/events/${event.id}/comments`, { token: viewer.token })).status).toBe(200);
    expect((await post(event.id, collab.token, { body: "Still here" })).status).toBe(201);
    const bad = await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body: { viewersCanComment: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe("Viewers can comment must be true or false");
    await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body: { viewersCanComment: true } });
    expect((await post(event.id, viewer.token, { body: "Now I can" })).status).toBe(201);
  });

  it("the author edits the body, editors resolve, the author or the owner deletes", async () => {
    const { owner, event, collab, viewer } = await team();
    const mine = (await post(event.id, viewer.token, { body: "Typo here", anchor })).json;
    const edit = (token: string, body: unknown) => call("PATCH", `/api/comments/${mine.id}`, { token, body });

    expect((await edit(collab.token, { body: "Not yours" })).json.error).toBe("You can only edit your own comments");
    const edited = await edit(viewer.token, { body: "Typo here: 'habour'" });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ body: "Typo here: 'habour'", anchor, resolved: false });

    const viewerResolve = await edit(viewer.token, { resolved: true });
    expect(viewerResolve.status).toBe(403);
    expect(viewerResolve.json.error).toBe("You have view-only access to this timeline");
    const resolved = await edit(collab.token, { resolved: true });
    expect(resolved.status).toBe(200);
    expect(resolved.json.resolved).toBe(true);
    expect((await edit(owner.token, { resolved: false })).json.resolved).toBe(false);

    const reply = (await post(event.id, collab.token, { body: "Fixed", threadId: mine.id })).json;
    const deny = await call("DELETE", `/api/comments/${mine.id}`, { token: collab.token });
    expect(deny.status).toBe(403);
    expect(deny.json.error).toBe("Only the comment's author or the timeline's owner can delete it");
    expect((await call("DELETE", `/api/comments/${reply.id}`, { token: collab.token })).status).toBe(200);
    const other = (await post(event.id, collab.token, { body: "Owner may remove this" })).json;
    expect((await call("DELETE", `/api/comments/${other.id}`, { token: owner.token })).status).toBe(200);
    // Deleting a thread's first comment takes its replies.
    await post(event.id, owner.token, { body: "A reply", threadId: mine.id });
    expect((await call("DELETE", `/api/comments/${mine.id}`, { token: viewer.token })).status).toBe(200);
    expect((await call("GET", `/api/events/${event.id}/comments`, { token: owner.token })).json).toEqual([]);
  });

  it("bad input gets the product's message, never a 500", async () => {
    const { owner, event } = await team();
    const cases: [unknown, number, string][] = [
      [{ body: "   " }, 400, "Comment cannot be empty"],
      [{}, 400, "Comment cannot be empty"],
      [{ body: 42 }, 400, "Comment cannot be empty"],
      [{ body: "x".repeat(5001) }, 400, "Comment must be 5,000 characters or less"],
      [{ body: "ok", anchor: { from: "AQ==", to: "AQ==", quote: "q".repeat(1001) } }, 400, "Quoted text must be 1,000 characters or less"],
      [
        { body: "ok", anchor: { from: "x".repeat(401), to: "AQ==", quote: "" } },
        400,
        "Anchor must be the selected text's start, end and quote",
      ],
      [
        { body: "ok", anchor: { from: "not base64!", to: "AQ==", quote: "" } },
        400,
        "Anchor must be the selected text's start, end and quote",
      ],
      [{ body: "ok", anchor: "everything" }, 400, "Anchor must be the selected text's start, end and quote"],
      [{ body: "ok", threadId: "1" }, 400, "Thread must be a comment id"],
      [{ body: "ok", threadId: 1.5 }, 400, "Thread must be a comment id"],
    ];
    for (const [body, status, error] of cases) {
      const res = await post(event.id, owner.token, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect(res.json.error).toBe(error);
    }
    expect((await post(event.id, owner.token, { body: "x".repeat(5000) })).status).toBe(201);
    const huge = await post(event.id, owner.token, { body: "x".repeat(1_100_000) });
    expect(huge.status).toBe(413);
    const first = (await post(event.id, owner.token, { body: "Root" })).json;
    const replyAnchor = await post(event.id, owner.token, { body: "ok", threadId: first.id, anchor });
    expect(replyAnchor.json.error).toBe("A reply belongs to its thread and has no anchor of its own");
    const nothing = await call("PATCH", `/api/comments/${first.id}`, { token: owner.token, body: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.json.error).toBe("Nothing to update");
    const empty = await call("PATCH", `/api/comments/${first.id}`, { token: owner.token, body: { body: "" } });
    expect(empty.json.error).toBe("Comment cannot be empty");
  });

  it("forged ids: another scene's thread, another timeline's comment, unknown and malformed ids", async () => {
    const a = await team();
    const b = await team();
    const theirs = (await post(b.event.id, b.owner.token, { body: "Private note" })).json;
    // A thread of a scene I cannot read is not a thread here.
    const cross = await post(a.event.id, a.owner.token, { body: "Sneaky", threadId: theirs.id });
    expect(cross.status).toBe(400);
    expect(cross.json.error).toBe("Thread must be a comment id");
    const other = await createEvent(a.owner.token, a.timeline.id, { title: "Other" });
    const root = (await post(a.event.id, a.owner.token, { body: "Here" })).json;
    expect((await post(other.id, a.owner.token, { body: "x", threadId: root.id })).status).toBe(400);
    for (const method of ["PATCH", "DELETE"]) {
      const res = await call(method, `/api/comments/${theirs.id}`, {
        token: a.owner.token,
        body: method === "PATCH" ? { resolved: true } : undefined,
      });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe("Comment not found");
    }
    expect((await call("PATCH", "/api/comments/999999999", { token: a.owner.token, body: { resolved: true } })).status).toBe(404);
    expect((await call("DELETE", "/api/comments/abc", { token: a.owner.token })).status).toBe(404);
    expect((await call("GET", "/api/events/0/comments", { token: a.owner.token })).status).toBe(404);
    const row = await env.DB.prepare("SELECT resolved FROM comments WHERE id = ?").bind(theirs.id).first();
    expect(row).toEqual({ resolved: 0 });
  });

  it("a removed collaborator and trashed scenes or timelines: 404", async () => {
    const { owner, timeline, event, collab } = await team();
    const c = (await post(event.id, collab.token, { body: "Mine" })).json;
    const removed = await call("DELETE", `/api/timelines/${timeline.id}/shares/${collab.user.id}`, { token: owner.token });
    expect(removed.status, removed.text).toBe(200);
    expect((await call("GET", `/api/events/${event.id}/comments`, { token: collab.token })).status).toBe(404);
    expect((await call("PATCH", `/api/comments/${c.id}`, { token: collab.token, body: { body: "Changed" } })).status).toBe(404);
    expect((await call("DELETE", `/api/comments/${c.id}`, { token: collab.token })).status).toBe(404);

    expect((await call("DELETE", `/api/events/${event.id}`, { token: owner.token })).status).toBe(200);
    expect((await call("GET", `/api/events/${event.id}/comments`, { token: owner.token })).status).toBe(404);
    expect((await call("PATCH", `/api/comments/${c.id}`, { token: owner.token, body: { resolved: true } })).status).toBe(404);
    expect((await call("POST", `/api/trash/event/${event.id}/restore`, { token: owner.token })).status).toBe(200);
    expect((await call("GET", `/api/events/${event.id}/comments`, { token: owner.token })).json).toHaveLength(1);

    expect((await call("DELETE", `/api/timelines/${timeline.id}`, { token: owner.token })).status).toBe(200);
    expect((await call("GET", `/api/events/${event.id}/comments`, { token: owner.token })).status).toBe(404);
    expect((await post(event.id, owner.token, { body: "x" })).status).toBe(404);
  });

  it("every write tells the room with a 'comments' sync naming the scene", async () => {
    const { owner, timeline, event, collab } = await team();
    const watcher = await connect(timeline.id, collab.token);
    await sleep(50);
    watcher.clear();
    const c = await post(event.id, owner.token, { body: "Live", anchor });
    const sync = await watcher.waitFor((m) => m.type === "sync", "sync");
    expect(sync).toEqual({ type: "sync", scope: "comments", eventId: event.id });
    expect(ServerMessageSchema.safeParse(sync).success).toBe(true);
    watcher.clear();
    await call("PATCH", `/api/comments/${c.json.id}`, { token: owner.token, body: { resolved: true } });
    expect(await watcher.waitFor((m) => m.type === "sync", "resolve sync")).toEqual({ type: "sync", scope: "comments", eventId: event.id });
    watcher.clear();
    await call("DELETE", `/api/comments/${c.json.id}`, { token: owner.token });
    expect(await watcher.waitFor((m) => m.type === "sync", "delete sync")).toEqual({ type: "sync", scope: "comments", eventId: event.id });
    await sleep(100);
    expect(watcher.messages.some((m) => m.type === "notification")).toBe(false);
    watcher.ws.close();
  });

  it("posting is rate limited per account", async () => {
    const { owner, event } = await team();
    await env.DB.prepare("INSERT INTO rate_limits (key, count, window_start) VALUES (?, 120, ?)")
      .bind(`comments:user:${owner.user.id}`, new Date().toISOString())
      .run();
    const res = await post(event.id, owner.token, { body: "One too many" });
    expect(res.status).toBe(429);
    expect(res.json.error).toMatch(/^Too many comments\. Please try again in \d+ minutes?\.$/);
  });

  it("the writer's export holds their comments; deleting the account keeps others' threads as 'Deleted writer'", async () => {
    const { owner, event, collab } = await team();
    const root = (await post(event.id, collab.token, { body: "Keep this thread", anchor })).json;
    await post(event.id, owner.token, { body: "Reply", threadId: root.id });
    const exported = await fetchZip(collab.token);
    const account = JSON.parse(strFromU8(unzipSync(exported)["account.json"]));
    expect(account.comments).toEqual([
      expect.objectContaining({ id: root.id, body: "Keep this thread", eventTitle: "The storm", quote: anchor.quote }),
    ]);

    const gone = await call("DELETE", "/api/account", { token: collab.token, body: { password: collab.password } });
    expect(gone.status, gone.text).toBe(200);
    const list = await call("GET", `/api/events/${event.id}/comments`, { token: owner.token });
    expect(list.json.map((c: { authorName: string; authorId: number | null }) => [c.authorName, c.authorId])).toEqual([
      ["Deleted writer", null],
      ["Olive Owner", owner.user.id],
    ]);
  });
});

/** The account zip's bytes (the test helper reads bodies as text). */
async function fetchZip(token: string) {
  const ctx = createExecutionContext();
  const req = new Request(`${ORIGIN}/api/account/export`, { headers: { Authorization: `Bearer ${token}` } });
  const res = await worker.fetch(req as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  const bytes = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return bytes;
}
