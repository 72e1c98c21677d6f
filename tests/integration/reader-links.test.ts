import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";

// Reader links (DESIGN §12 'Readers'): the owner's links, the account-free reading view, readers' comments and
// where each reader stopped.

async function book() {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title: "The Lantern" });
  const ch = await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: owner.token, body: { title: "One" } });
  expect(ch.status, ch.text).toBe(201);
  const first = await createEvent(owner.token, timeline.id, { title: "Dawn", content: "The lantern was lit at dawn." });
  const secret = await createEvent(owner.token, timeline.id, { title: "Plan", content: "Spoilers for the author only." });
  const last = await createEvent(owner.token, timeline.id, { title: "Dusk", content: "It went out at dusk." });
  return { owner, timeline, first, secret, last };
}

async function link(token: string, timelineId: number, label = "Book club") {
  const res = await call("POST", `/api/timelines/${timelineId}/reader-links`, { token, body: { label } });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: number; code: string; label: string; url: string; createdAt: string };
}

const reader = (token: string) => ({ headers: { "X-Reader-Token": token } });

describe("reader links", () => {
  it("only the owner creates, lists and ends links; viewers, collaborators and strangers are refused", async () => {
    const { owner, timeline } = await book();
    const viewer = await registerUser();
    const co = await registerUser();
    const stranger = await registerUser();
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    await shareWith(timeline.id, owner.user.id, co.user.id, "collaborator");
    const made = await link(owner.token, timeline.id, "  Agent ");
    expect(made).toEqual({
      id: expect.any(Number),
      code: expect.any(String),
      label: "Agent",
      url: `http://storyweave.test/read/${made.code}`,
      createdAt: expect.any(String),
    });
    for (const who of [viewer, co]) {
      expect((await call("POST", `/api/timelines/${timeline.id}/reader-links`, { token: who.token, body: { label: "x" } })).status).toBe(
        403,
      );
      expect((await call("GET", `/api/timelines/${timeline.id}/reader-links`, { token: who.token })).status).toBe(403);
      expect((await call("DELETE", `/api/reader-links/${made.id}`, { token: who.token })).status).toBe(404);
    }
    expect((await call("POST", `/api/timelines/${timeline.id}/reader-links`, { token: stranger.token, body: { label: "x" } })).status).toBe(
      404,
    );
    expect((await call("GET", `/api/timelines/${timeline.id}/reader-links`)).status).toBe(401);
    const list = await call("GET", `/api/timelines/${timeline.id}/reader-links`, { token: owner.token });
    expect(list.json).toEqual([{ ...made, readers: [] }]);
  });

  it("refuses a missing, blank, huge or malformed label with a clear 400", async () => {
    const { owner, timeline } = await book();
    const post = (body: unknown, rawBody?: string) =>
      call("POST", `/api/timelines/${timeline.id}/reader-links`, { token: owner.token, body, rawBody });
    expect((await post({})).json.error).toBe("Label is required");
    expect((await post({ label: "   " })).json.error).toBe("Label is required");
    expect((await post({ label: "x".repeat(81) })).json.error).toBe("Label must be 80 characters or less");
    expect((await post(undefined, "{not json")).status).toBe(400);
    expect((await post({ label: 7 })).status).toBe(400);
  });

  it("reads the book without an account: chapters in order, no planning, 'Not for readers' scenes left out", async () => {
    const { owner, timeline, first, secret, last } = await book();
    const co = await registerUser();
    const viewer = await registerUser();
    await shareWith(timeline.id, owner.user.id, co.user.id, "collaborator");
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    expect((await call("PATCH", `/api/events/${secret.id}`, { token: viewer.token, body: { forReaders: false } })).status).toBe(403);
    expect((await call("PATCH", `/api/events/${secret.id}`, { token: co.token, body: { forReaders: "no" } })).json.error).toBe(
      "forReaders must be true or false",
    );
    const hide = await call("PATCH", `/api/events/${secret.id}`, { token: co.token, body: { forReaders: false } });
    expect(hide.status, hide.text).toBe(200);
    expect(hide.json).toEqual({ id: secret.id, forReaders: false });
    // Other changes to a scene still go to the events API.
    const renamed = await call("PATCH", `/api/events/${first.id}`, { token: owner.token, body: { title: "Dawn!" } });
    expect(renamed.status, renamed.text).toBe(200);
    const { code } = await link(owner.token, timeline.id);
    const res = await call("GET", `/api/read/${code}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      timeline: { title: "The Lantern", author: "Olive Owner" },
      chapters: [
        {
          title: null,
          scenes: [
            { id: first.id, title: "Dawn!", content: "The lantern was lit at dawn." },
            { id: last.id, title: "Dusk", content: "It went out at dusk." },
          ],
        },
      ],
      reader: null,
    });
    expect(res.text).not.toContain("Spoilers");
  });

  it("a forged code and an ended link are not found; ending is at once", async () => {
    const { owner, timeline, first } = await book();
    const made = await link(owner.token, timeline.id);
    expect((await call("GET", "/api/read/forged-code-123456")).status).toBe(404);
    expect((await call("GET", "/api/read/%3Cscript%3E")).status).toBe(404);
    const ended = await call("DELETE", `/api/reader-links/${made.id}`, { token: owner.token });
    expect(ended.status).toBe(204);
    const gone = await call("GET", `/api/read/${made.code}`);
    expect(gone.status).toBe(404);
    expect(gone.json.error).toMatch(/not found/);
    const late = await call("POST", `/api/read/${made.code}/comments`, { body: { name: "Al", body: "Hi", eventId: first.id } });
    expect(late.status).toBe(404);
    expect((await call("GET", `/api/timelines/${timeline.id}/reader-links`, { token: owner.token })).json).toEqual([]);
  });

  it("a reader comments after giving a name; the owner sees 'Reader: {name}'; each reader sees only their own", async () => {
    const { owner, timeline, first, secret, last } = await book();
    await call("PATCH", `/api/events/${secret.id}`, { token: owner.token, body: { forReaders: false } });
    const { code } = await link(owner.token, timeline.id);
    const nameless = await call("POST", `/api/read/${code}/comments`, { body: { body: "Hi", eventId: first.id } });
    expect(nameless.status).toBe(400);
    expect(nameless.json.error).toBe("Give your name first");
    const a = await call("POST", `/api/read/${code}/comments`, {
      body: { name: "Ann", body: "Lovely line", anchor: { quote: "lit at dawn" }, eventId: first.id },
    });
    expect(a.status, a.text).toBe(201);
    expect(a.headers.get("Set-Cookie")).toContain("HttpOnly");
    const annToken = a.json.readerToken as string;
    const b = await call("POST", `/api/read/${code}/comments`, { body: { name: "Bo", body: "Too dark", eventId: last.id } });
    const boToken = b.json.readerToken as string;
    // A second comment with the token needs no name and gets no new token.
    const again = await call("POST", `/api/read/${code}/comments`, { ...reader(annToken), body: { body: "More", eventId: last.id } });
    expect(again.status, again.text).toBe(201);
    expect(again.json.readerToken).toBeUndefined();
    // A hidden scene, another book's scene or a junk id cannot be commented on.
    expect(
      (await call("POST", `/api/read/${code}/comments`, { ...reader(annToken), body: { body: "x", eventId: secret.id } })).status,
    ).toBe(404);
    expect((await call("POST", `/api/read/${code}/comments`, { ...reader(annToken), body: { body: "x", eventId: 1.5 } })).status).toBe(400);
    expect(
      (await call("POST", `/api/read/${code}/comments`, { ...reader(annToken), body: { body: "x".repeat(5001), eventId: first.id } }))
        .status,
    ).toBe(400);
    const mine = await call("GET", `/api/read/${code}/comments`, reader(annToken));
    expect(mine.json.map((c: { body: string }) => c.body)).toEqual(["Lovely line", "More"]);
    expect(mine.json[0].quote).toBe("lit at dawn");
    const bos = await call("GET", `/api/read/${code}/comments`, reader(boToken));
    expect(bos.json.map((c: { body: string }) => c.body)).toEqual(["Too dark"]);
    expect((await call("GET", `/api/read/${code}/comments`)).json).toEqual([]);
    // Another link's token is no one on this link.
    const other = await link(owner.token, timeline.id, "Agent");
    expect((await call("GET", `/api/read/${other.code}/comments`, reader(annToken))).json).toEqual([]);
    const panel = await call("GET", `/api/events/${first.id}/comments`, { token: owner.token });
    expect(panel.status, panel.text).toBe(200);
    expect(JSON.stringify(panel.json)).toContain("Reader: Ann");
  });

  it("remembers where each reader stopped and shows it to the owner", async () => {
    const { owner, timeline, first, secret, last } = await book();
    await call("PATCH", `/api/events/${secret.id}`, { token: owner.token, body: { forReaders: false } });
    const { code, id } = await link(owner.token, timeline.id);
    const start = await call("POST", `/api/read/${code}/progress`, { body: { name: "Cy", eventId: first.id } });
    expect(start.status, start.text).toBe(200);
    const token = start.json.readerToken as string;
    expect((await call("POST", `/api/read/${code}/progress`, { ...reader(token), body: { eventId: secret.id } })).status).toBe(404);
    expect((await call("POST", `/api/read/${code}/progress`, { ...reader(token), body: { eventId: last.id } })).status).toBe(200);
    expect((await call("POST", `/api/read/${code}/progress`, { body: { eventId: last.id } })).status).toBe(400);
    const back = await call("GET", `/api/read/${code}`, reader(token));
    expect(back.json.reader).toEqual({ name: "Cy", eventId: last.id });
    const list = await call("GET", `/api/timelines/${timeline.id}/reader-links`, { token: owner.token });
    expect(list.json.find((l: { id: number }) => l.id === id).readers).toEqual([
      { name: "Cy", eventId: last.id, at: expect.any(String), place: "Dusk" },
    ]);
    // The events list carries the mark, so the card and its editor show it.
    const listed = await call("GET", `/api/timelines/${timeline.id}/events`, { token: owner.token });
    const marks = Object.fromEntries(listed.json.map((e: { id: number; forReaders: boolean }) => [e.id, e.forReaders]));
    expect(marks).toEqual({ [first.id]: true, [secret.id]: false, [last.id]: true });
  });

  it("refuses a comment flood from one link, and from one reader, with a clear message", async () => {
    const { owner, timeline, first } = await book();
    const { code } = await link(owner.token, timeline.id);
    const env = { RATE_READER_COMMENTS_PER_LINK_PER_HOUR: "3", RATE_READER_COMMENTS_PER_READER_PER_HOUR: "2" };
    const post = (body: Record<string, unknown>, headers?: Record<string, string>) =>
      call("POST", `/api/read/${code}/comments`, { body: { eventId: first.id, body: "Hm", ...body }, headers, env });
    const a = await post({ name: "Di" });
    const t = a.json.readerToken as string;
    expect((await post({}, { "X-Reader-Token": t })).status).toBe(201);
    const perReader = await post({}, { "X-Reader-Token": t });
    expect(perReader.status).toBe(429);
    expect(perReader.json.error).toMatch(/^Too many comments\. Please try again in/);
    const flood = await post({ name: "Ed" });
    expect(flood.status).toBe(429);
    expect(flood.json.error).toMatch(/^Too many comments from this link/);
    expect(flood.headers.get("Retry-After")).toBeTruthy();
  });
});
