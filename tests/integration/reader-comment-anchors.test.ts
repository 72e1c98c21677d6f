import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser } from "./helpers";
import { anchoredText } from "./doc-helpers";
import { connect, sleep } from "./room-helpers";

// A reader's comment (DESIGN §12 'Readers') lands in the owner's Comments anchored to the words it was made on, as a
// writer's comment is (Yjs relative positions in the scene's shared doc), so the owner sees it in place.

const DAWN = "At dawn the bell rang once, and nobody woke.";
const NOON = "At noon the bell rang twice, and the town came out.";

async function book() {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title: "The Drowned Bell" });
  const scene = await createEvent(owner.token, timeline.id, { title: "Bells", content: `${DAWN}\n\n${NOON}` });
  const res = await call("POST", `/api/timelines/${timeline.id}/reader-links`, { token: owner.token, body: { label: "Book club" } });
  expect(res.status, res.text).toBe(201);
  return { owner, timeline, scene, code: res.json.code as string, linkId: res.json.id as number };
}

type Anchor = { from: string; to: string; quote: string } | null;

const ownerComments = async (token: string, eventId: number) => {
  const res = await call("GET", `/api/events/${eventId}/comments`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json as { id: number; authorName: string; body: string; anchor: Anchor; authorId: number | null; threadId: number | null }[];
};

describe("reader comments anchored to the text", () => {
  it("a comment on a quoted sentence gets an anchor the owner's lists resolve to exactly those words", async () => {
    const { owner, timeline, scene, code } = await book();
    const res = await call("POST", `/api/read/${code}/comments`, {
      body: { name: "Ann", body: "Who rang it?", eventId: scene.id, anchor: { quote: NOON, prefix: `${DAWN}\n\n`, suffix: "" } },
    });
    expect(res.status, res.text).toBe(201);
    // The reader's answer keeps its shape: no positions sent back to them.
    expect(Object.keys(res.json).sort()).toEqual(["body", "createdAt", "eventId", "id", "quote", "readerToken"]);
    const [comment] = await ownerComments(owner.token, scene.id);
    expect(comment).toEqual({
      id: res.json.id,
      eventId: scene.id,
      threadId: null,
      authorId: null,
      authorName: "Reader: Ann",
      body: "Who rang it?",
      anchor: { from: expect.any(String), to: expect.any(String), quote: NOON },
      resolved: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(comment.anchor!.from).not.toBe("");
    expect((await anchoredText(scene.id, comment.anchor!))?.words).toBe(NOON);
    // The Manuscript's Comments (the timeline's list) carry the same anchor.
    const all = await call("GET", `/api/timelines/${timeline.id}/comments`, { token: owner.token });
    expect(all.json.find((c: { id: number }) => c.id === comment.id).anchor).toEqual(comment.anchor);
  });

  it("tells the writers' open pages at once: a quiet 'comments' sync naming the scene, no notice", async () => {
    const { owner, timeline, scene, code } = await book();
    const watcher = await connect(timeline.id, owner.token);
    await sleep(50);
    watcher.clear();
    const res = await call("POST", `/api/read/${code}/comments`, {
      body: { name: "Di", body: "Chills", eventId: scene.id, anchor: { quote: "the bell rang once" } },
    });
    expect(res.status, res.text).toBe(201);
    expect(await watcher.waitFor((m) => m.type === "sync", "sync")).toEqual({ type: "sync", scope: "comments", eventId: scene.id });
    await sleep(100);
    expect(watcher.messages.some((m) => m.type === "notification")).toBe(false);
    watcher.ws.close();
  });

  it("a quote found more than once is anchored where the reader selected it, picked by the words around it", async () => {
    const { owner, scene, code } = await book();
    const post = (name: string, anchor: Record<string, string>) =>
      call("POST", `/api/read/${code}/comments`, { body: { name, body: `On ${name}'s bell`, eventId: scene.id, anchor } });
    // The second "the bell rang" (at noon), then the first (at dawn), then one with no context at all (the first).
    expect((await post("Noon", { quote: "the bell rang", prefix: `${DAWN}\n\nAt noon `, suffix: " twice, and" })).status).toBe(201);
    expect((await post("Dawn", { quote: "the bell rang", prefix: "At dawn ", suffix: " once" })).status).toBe(201);
    // Only the words after it: still the noon one.
    expect((await post("After", { quote: "the bell rang", suffix: " twice" })).status).toBe(201);
    expect((await post("Bare", { quote: "the bell rang" })).status).toBe(201);
    const list = await ownerComments(owner.token, scene.id);
    const where = async (name: string) => {
      const c = list.find((x) => x.body === `On ${name}'s bell`)!;
      return anchoredText(scene.id, c.anchor!);
    };
    expect(await where("Noon")).toEqual({ words: "the bell rang", before: `${DAWN} At noon ` });
    expect(await where("Dawn")).toEqual({ words: "the bell rang", before: "At dawn " });
    expect(await where("After")).toEqual({ words: "the bell rang", before: `${DAWN} At noon ` });
    expect(await where("Bare")).toEqual({ words: "the bell rang", before: "At dawn " });
  });

  it("a quote the text no longer holds stays on the scene with its quote, listed and never lost", async () => {
    const { owner, scene, code } = await book();
    // The owner rewrites the noon sentence after the reader loaded the page.
    const edit = await call("PATCH", `/api/events/${scene.id}`, {
      token: owner.token,
      body: { content: `${DAWN}\n\nAt noon it was silent.`, version: scene.version },
    });
    expect(edit.status, edit.text).toBe(200);
    const res = await call("POST", `/api/read/${code}/comments`, {
      body: { name: "Bo", body: "Lovely", eventId: scene.id, anchor: { quote: "the bell rang twice", prefix: "At noon " } },
    });
    expect(res.status, res.text).toBe(201);
    const [comment] = await ownerComments(owner.token, scene.id);
    expect(comment).toMatchObject({ authorName: "Reader: Bo", body: "Lovely", anchor: { from: "", to: "", quote: "the bell rang twice" } });
    // The reader still sees it, quote and all.
    const mine = await call("GET", `/api/read/${code}/comments`, { headers: { "X-Reader-Token": res.json.readerToken } });
    expect(mine.json).toEqual([expect.objectContaining({ body: "Lovely", quote: "the bell rang twice" })]);
    // A comment with no quote stays on the whole scene, as before.
    const whole = await call("POST", `/api/read/${code}/comments`, {
      headers: { "X-Reader-Token": res.json.readerToken },
      body: { body: "The whole scene works", eventId: scene.id },
    });
    expect(whole.status, whole.text).toBe(201);
    expect((await ownerComments(owner.token, scene.id)).find((c) => c.id === whole.json.id)?.anchor).toBeNull();
  });

  it("a quote of the reading view's text with Markdown's emphasis marks is found in the formatted words", async () => {
    const { owner, timeline, code } = await book();
    const styled = await createEvent(owner.token, timeline.id, { title: "Styled", content: "The **brass** bell was *never* rung again." });
    const res = await call("POST", `/api/read/${code}/comments`, {
      body: { name: "Cy", body: "Why never?", eventId: styled.id, anchor: { quote: "bell was *never* rung", prefix: "The **brass** " } },
    });
    expect(res.status, res.text).toBe(201);
    const [comment] = await ownerComments(owner.token, styled.id);
    expect(comment.anchor?.quote).toBe("bell was *never* rung");
    expect(await anchoredText(styled.id, comment.anchor!)).toEqual({ words: "bell was never rung", before: "The brass " });
  });

  it("refuses another book's scene, a 'Not for readers' scene, an ended link and huge or malformed anchors, clearly", async () => {
    const { owner, timeline, scene, code, linkId } = await book();
    const other = await registerUser();
    const theirs = await createTimeline(other.token, { title: "Someone else's" });
    const foreign = await createEvent(other.token, theirs.id, { title: "Theirs", content: "The bell rang elsewhere." });
    const hidden = await createEvent(owner.token, timeline.id, { title: "Plan", content: "The bell rang for the author only." });
    await call("PATCH", `/api/events/${hidden.id}`, { token: owner.token, body: { forReaders: false } });
    const post = (body: Record<string, unknown>, on = code) =>
      call("POST", `/api/read/${on}/comments`, { body: { name: "Eve", body: "x", ...body } });
    const quote = { quote: "The bell rang" };
    for (const eventId of [foreign.id, hidden.id]) {
      const res = await post({ eventId, anchor: quote });
      expect(res.status).toBe(404);
      expect(res.json.error).toBe("Scene not found");
    }
    expect((await call("GET", `/api/events/${foreign.id}/comments`, { token: other.token })).json).toEqual([]);
    const huge = await post({ eventId: scene.id, anchor: { quote: "x".repeat(1001) } });
    expect(huge.status).toBe(400);
    expect(huge.json.error).toBe("The selected text must be 1,000 characters or less");
    const wideContext = await post({ eventId: scene.id, anchor: { quote: "the bell rang", prefix: "x".repeat(501) } });
    expect(wideContext.status).toBe(400);
    expect(wideContext.json.error).toBe("The text around the selection must be 500 characters or less");
    const badContext = await post({ eventId: scene.id, anchor: { quote: "the bell rang", suffix: 7 } });
    expect(badContext.status).toBe(400);
    expect(badContext.json.error).toBe("anchor.suffix must be text");
    // A client's own positions are not taken: the server makes the anchor from the quote.
    const forged = await post({ eventId: scene.id, anchor: { quote: "the bell rang", from: "AQ==", to: "AQ==" } });
    expect(forged.status, forged.text).toBe(201);
    const [made] = await ownerComments(owner.token, scene.id);
    expect(made.anchor!.from).not.toBe("AQ==");
    expect((await anchoredText(scene.id, made.anchor!))?.words).toBe("the bell rang");
    expect((await call("DELETE", `/api/reader-links/${linkId}`, { token: owner.token })).status).toBe(204);
    const ended = await post({ eventId: scene.id, anchor: quote });
    expect(ended.status).toBe(404);
    expect(ended.json.error).toBe("This reader link was not found. It may have ended; ask the author for a new one.");
    expect(await ownerComments(owner.token, scene.id)).toHaveLength(1);
  });
});
