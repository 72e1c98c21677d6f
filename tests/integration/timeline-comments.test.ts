import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import worker from "../../worker/index";
import { ORIGIN, call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";

/** An owner's timeline with two scenes, shared with a collaborator and a viewer, and a stranger. */
async function team() {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title: "Review round" });
  const storm = await createEvent(owner.token, timeline.id, { title: "The storm", content: "The storm breaks over the harbour." });
  const dawn = await createEvent(owner.token, timeline.id, { title: "Dawn", content: "Quiet water." });
  const collab = await registerUser({ name: "Mara" });
  const viewer = await registerUser({ name: "Bea Reader" });
  const stranger = await registerUser({ name: "Stranger" });
  await shareWith(timeline.id, owner.user.id, collab.user.id, "collaborator");
  await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
  return { owner, timeline, storm, dawn, collab, viewer, stranger };
}

const anchor = { from: "AQLK5rKhCQA=", to: "AQLK5rKhCQ8=", quote: "storm breaks" };

async function post(eventId: number, token: string, body: Record<string, unknown>) {
  const res = await call("POST", `/api/events/${eventId}/comments`, { token, body });
  expect(res.status, res.text).toBe(201);
  return res.json;
}
const list = (timelineId: number, token: string, query = "") => call("GET", `/api/timelines/${timelineId}/comments${query}`, { token });
const ids = (items: { id: number }[]) => items.map((c) => c.id);

describe("a timeline's comments", () => {
  it("lists whole threads across scenes, newest thread first, with the scene's title, for every reader", async () => {
    const { owner, timeline, storm, dawn, collab, viewer } = await team();
    const first = await post(storm.id, viewer.token, { body: "Too abrupt?", anchor });
    const reply = await post(storm.id, collab.token, { body: "I like it", threadId: first.id });
    const second = await post(dawn.id, owner.token, { body: "Longer, please" });
    const late = await post(storm.id, owner.token, { body: "Agreed", threadId: first.id });

    for (const reader of [owner, collab, viewer]) {
      const res = await list(timeline.id, reader.token);
      expect(res.status, res.text).toBe(200);
      expect(ids(res.json)).toEqual([second.id, first.id, reply.id, late.id]);
    }
    const res = await list(timeline.id, viewer.token);
    expect(res.json[1]).toEqual({ ...first, eventTitle: "The storm" });
    expect(res.json[0]).toMatchObject({ eventId: dawn.id, eventTitle: "Dawn", anchor: null, threadId: null, authorName: "Olive Owner" });
  });

  it("filters by thread state and by a writer who took part; bad filters are a 400 in words", async () => {
    const { owner, timeline, storm, dawn, collab, viewer } = await team();
    const a = await post(storm.id, viewer.token, { body: "First", anchor });
    const aReply = await post(storm.id, collab.token, { body: "Reply", threadId: a.id });
    const b = await post(dawn.id, owner.token, { body: "Second" });
    expect((await call("PATCH", `/api/comments/${b.id}`, { token: collab.token, body: { resolved: true } })).status).toBe(200);

    expect(ids((await list(timeline.id, owner.token, "?status=open")).json)).toEqual([a.id, aReply.id]);
    expect(ids((await list(timeline.id, owner.token, "?status=resolved")).json)).toEqual([b.id]);
    expect(ids((await list(timeline.id, owner.token, `?author=${collab.user.id}`)).json)).toEqual([a.id, aReply.id]);
    expect(ids((await list(timeline.id, owner.token, `?author=${owner.user.id}`)).json)).toEqual([b.id]);
    expect(ids((await list(timeline.id, owner.token, `?author=${owner.user.id}&status=open`)).json)).toEqual([]);

    const badStatus = await list(timeline.id, owner.token, "?status=maybe");
    expect(badStatus.status).toBe(400);
    expect(badStatus.json.error).toBe("Status must be open or resolved");
    const badAuthor = await list(timeline.id, owner.token, "?author=me");
    expect(badAuthor.status).toBe(400);
    expect(badAuthor.json.error).toBe("Author must be a user id");
  });

  it("counts open threads per scene without the events list growing; resolving drops the count", async () => {
    const { owner, timeline, storm, dawn, collab, viewer } = await team();
    const before = await call("GET", `/api/timelines/${timeline.id}/events`, { token: owner.token });
    const a = await post(storm.id, viewer.token, { body: "One", anchor });
    await post(storm.id, collab.token, { body: "A reply is not a thread", threadId: a.id });
    await post(storm.id, owner.token, { body: "Two" });
    const c = await post(dawn.id, owner.token, { body: "Three" });

    const counts = await list(timeline.id, viewer.token, "?counts=1");
    expect(counts.status).toBe(200);
    expect(counts.json).toEqual({ counts: { [storm.id]: 2, [dawn.id]: 1 } });
    await call("PATCH", `/api/comments/${c.id}`, { token: owner.token, body: { resolved: true } });
    expect((await list(timeline.id, collab.token, "?counts=1")).json).toEqual({ counts: { [storm.id]: 2 } });
    const after = await call("GET", `/api/timelines/${timeline.id}/events`, { token: owner.token });
    expect(after.text.length).toBe(before.text.length);
  });

  it("viewers read the list whether or not they may comment; the setting only decides posting", async () => {
    const { owner, timeline, storm, viewer } = await team();
    await post(storm.id, viewer.token, { body: "While allowed" });
    await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body: { viewersCanComment: false } });
    const res = await list(timeline.id, viewer.token);
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(1);
    expect((await list(timeline.id, viewer.token, "?counts=1")).json).toEqual({ counts: { [storm.id]: 1 } });
    const refused = await call("POST", `/api/events/${storm.id}/comments`, { token: viewer.token, body: { body: "Now?" } });
    expect(refused.status).toBe(403);
    expect((await list(timeline.id, viewer.token)).json).toHaveLength(1);
  });

  it("strangers, removed collaborators and the signed-out learn nothing", async () => {
    const { owner, timeline, storm, collab, stranger } = await team();
    await post(storm.id, collab.token, { body: "Before I leave" });
    for (const query of ["", "?counts=1"]) {
      const res = await list(timeline.id, stranger.token, query);
      expect(res.status).toBe(404);
      expect(res.json.error).toBe("Timeline not found");
    }
    const removed = await call("DELETE", `/api/timelines/${timeline.id}/shares/${collab.user.id}`, { token: owner.token });
    expect(removed.status, removed.text).toBe(200);
    expect((await list(timeline.id, collab.token)).status).toBe(404);
    expect((await list(timeline.id, collab.token, "?counts=1")).status).toBe(404);
    expect((await call("GET", `/api/timelines/${timeline.id}/comments`)).status).toBe(401);
    expect((await list(999999999, owner.token)).status).toBe(404);
  });

  it("a scene in Trash takes its comments out of the list and the counts, and brings them back on restore", async () => {
    const { owner, timeline, storm, dawn } = await team();
    const kept = await post(dawn.id, owner.token, { body: "Stays" });
    await post(storm.id, owner.token, { body: "Goes to Trash" });
    expect((await call("DELETE", `/api/events/${storm.id}`, { token: owner.token })).status).toBe(200);
    expect(ids((await list(timeline.id, owner.token)).json)).toEqual([kept.id]);
    expect((await list(timeline.id, owner.token, "?counts=1")).json).toEqual({ counts: { [dawn.id]: 1 } });
    expect((await call("POST", `/api/trash/event/${storm.id}/restore`, { token: owner.token })).status).toBe(200);
    expect((await list(timeline.id, owner.token)).json).toHaveLength(2);
    // A trashed timeline is not found.
    expect((await call("DELETE", `/api/timelines/${timeline.id}`, { token: owner.token })).status).toBe(200);
    expect((await list(timeline.id, owner.token)).status).toBe(404);
  });

  it("a reader loads the scene's shared doc, so read mode anchors at the editor's relative positions", async () => {
    const { owner, storm, viewer, stranger } = await team();
    const state = async (token: string) => {
      const ctx = createExecutionContext();
      const headers = { Authorization: `Bearer ${token}` };
      const res = await worker.fetch(new Request(`${ORIGIN}/api/events/${storm.id}/doc-state`, { headers }) as never, env, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    const res = await state(viewer.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/octet-stream");
    const doc = new Y.Doc();
    Y.applyUpdate(doc, new Uint8Array(await res.arrayBuffer()));
    const content = doc.getXmlFragment("content");
    expect(content.toString()).toContain("The storm breaks over the harbour.");
    // A position made on the reader's copy resolves in the doc as the writers have it (the same items).
    const text = (content.get(0) as Y.XmlElement).get(0) as Y.XmlText;
    const anchorAt = Y.encodeRelativePosition(Y.createRelativePositionFromTypeIndex(text, 4));
    const again = new Y.Doc();
    Y.applyUpdate(again, new Uint8Array(await (await state(owner.token)).arrayBuffer()));
    const resolved = Y.createAbsolutePositionFromRelativePosition(Y.decodeRelativePosition(anchorAt), again);
    expect(resolved?.index).toBe(4);
    expect(resolved?.type).toBe((again.getXmlFragment("content").get(0) as Y.XmlElement).get(0));
    expect((await state(stranger.token)).status).toBe(404);
  });
});
