import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { openDoc, waitUntil, setupSharedScene, storedEvent } from "./doc-helpers";
import { call, createTimeline, registerUser, shareWith } from "./helpers";
import { connect, sleep, upgrade } from "./room-helpers";

// lock-free co-writing. Real Yjs clients through the Worker into the event's EventDoc.

const setup = (content?: string) => setupSharedScene(content);

const stored = storedEvent;

const versionsOf = async (eventId: number) =>
  (await env.DB.prepare("SELECT author_id, title, content FROM event_versions WHERE event_id = ? ORDER BY id").bind(eventId).all())
    .results as Array<{
    author_id: number;
    title: string;
    content: string;
  }>;

describe("the shared doc is for writers only", () => {
  it("refuses anonymous, strangers, viewers and a mismatched timeline before any socket opens", async () => {
    const { owner, timeline, event } = await setup();
    const viewer = await registerUser({ name: "Vic" });
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    const stranger = await registerUser({ name: "Stan" });
    const other = await createTimeline(owner.token);
    const path = `/ws/${timeline.id}/events/${event.id}/doc`;

    const anon = await upgrade(path);
    expect(anon.status).toBe(401);
    const v = await upgrade(path, viewer.token);
    expect(v.status).toBe(403);
    expect(await v.json()).toEqual({ error: "You have view-only access to this timeline" });
    const s = await upgrade(path, stranger.token);
    expect(s.status).toBe(404);
    expect(await s.json()).toEqual({ error: "Event not found" });
    const wrong = await upgrade(`/ws/${other.id}/events/${event.id}/doc`, owner.token);
    expect(wrong.status).toBe(404);
    expect((await upgrade(`/ws/${timeline.id}/events/0${event.id}/doc`, owner.token)).status).toBe(404);
  });
});

describe("writers in one event converge", () => {
  it("opens with the stored text, unchanged", async () => {
    const { owner, timeline, event } = await setup("Line one\nline two & more <3\n\nSecond paragraph");
    const a = await openDoc(timeline.id, event.id, owner.token);
    expect(a.title()).toBe("The storm");
    expect(a.markdown()).toBe("Line one\nline two & more <3\n\nSecond paragraph");
    a.close();
    await sleep(50);
    // Opening and leaving without typing writes nothing.
    expect((await stored(event.id)).version).toBe(event.version);
  });

  it("two writers typing in the same paragraph at once: both converge with every word, D1 gets the Markdown", async () => {
    const { owner, timeline, event, collab } = await setup();
    const a = await openDoc(timeline.id, event.id, owner.token);
    const b = await openDoc(timeline.id, event.id, collab.token);
    const wordsA = ["lightning", "thunder", "rain"];
    const wordsB = ["gulls", "sails", "rope"];
    for (let i = 0; i < 3; i++) {
      a.type(` ${wordsA[i]}`, 0, 9);
      b.type(` ${wordsB[i]}`, 0, 9);
      await sleep(5);
    }
    await waitUntil(() => a.markdown() === b.markdown() && [...wordsA, ...wordsB].every((w) => a.markdown().includes(w)), "convergence");
    // Edits settle (1 s debounce): D1 holds the doc's Markdown, one version by a writer.
    await waitUntil(async () => (await stored(event.id)).content === a.markdown(), "D1 write", 8000);
    await a.waitForSaved((m) => m.version > event.version, "persisted");
    const row = await stored(event.id);
    expect(row.content).toBe(b.markdown());
    expect(row.version).toBeGreaterThan(event.version);
    const api = await call("GET", `/api/events/${event.id}/versions`, { token: owner.token });
    expect(api.status).toBe(200);
    expect(api.json.length).toBeGreaterThanOrEqual(2);
    a.close();
    b.close();
  });

  it("three writers converge; a writer offline for a while merges on reconnect", async () => {
    const { owner, timeline, event, collab } = await setup();
    const third = await registerUser({ name: "Tom" });
    await shareWith(timeline.id, owner.user.id, third.user.id, "collaborator");
    const a = await openDoc(timeline.id, event.id, owner.token);
    const b = await openDoc(timeline.id, event.id, collab.token);
    const c = await openDoc(timeline.id, event.id, third.token);
    a.type(" alpha", 1);
    b.type(" bravo", 1);
    c.type(" charlie", 1);
    await waitUntil(
      () => a.markdown() === b.markdown() && b.markdown() === c.markdown() && a.markdown().includes("charlie"),
      "three converge",
    );

    c.goOffline();
    c.type(" offline-delta", 1);
    c.type("Before: ", 0, 0);
    a.type(" echo", 1);
    await sleep(100);
    expect(a.markdown()).not.toContain("offline-delta");
    await c.reconnect();
    const all = ["alpha", "bravo", "charlie", "offline-delta", "Before: ", "echo"];
    await waitUntil(
      () => a.markdown() === c.markdown() && b.markdown() === c.markdown() && all.every((w) => a.markdown().includes(w)),
      "merge",
    );
    // Everyone leaves: the last one out writes D1 at once.
    a.close();
    b.close();
    c.close();
    await waitUntil(async () => (await stored(event.id)).content === a.markdown(), "D1 after the last writer left", 5000);
  });
});

describe("typing reaches everyone's cards through the doc, the one channel of a scene's text", () => {
  it("a writer's typing is relayed to the room with their identity, also to viewers, without a client relay", async () => {
    const { owner, timeline, event, collab } = await setup();
    const viewer = await registerUser({ name: "Vic" });
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    const watching = await connect(timeline.id, viewer.token);
    await watching.waitFor((m) => m.type === "presence", "presence");
    const writer = await openDoc(timeline.id, event.id, collab.token);
    writer.type(" Thunder.", 0);
    writer.doc.transact(() => writer.doc.getText("title").insert(9, " at dusk"));
    const content = await watching.waitFor((m) => m.type === "change" && m.change.type === "content", "content typing");
    expect(content).toMatchObject({ eventId: event.id, userId: collab.user.id, userName: "Mara" });
    expect(content.change.value).toBe("The storm breaks over the harbour. Thunder.\n\nMara runs for the boats.");
    const title = await watching.waitFor((m) => m.type === "change" && m.change.type === "title", "title typing");
    expect(title.change.value).toBe("The storm at dusk");
    // Typed text reaches cards while it is typed, before any save: D1 still has the old text.
    expect((await stored(event.id)).content).toBe(event.content);
    // Continuous typing is relayed as it goes (at most every 300 ms), not only when the writer stops.
    watching.clear();
    for (let i = 0; i < 12; i++) {
      writer.type(` w${i}`, 1);
      await sleep(100);
    }
    const seen = watching.messages.filter((m) => m.type === "change" && m.change.type === "content");
    expect(seen.length).toBeGreaterThanOrEqual(2);
    await waitUntil(() => watching.messages.some((m) => m.type === "change" && String(m.change.value).endsWith("w11")), "the last words");
    writer.close();
    watching.ws.close();
  });
});

describe("Save, validation and history", () => {
  it("Save writes now and answers with the version; an empty title is refused and nothing is lost", async () => {
    const { timeline, event, collab } = await setup();
    const b = await openDoc(timeline.id, event.id, collab.token);
    b.type(" **Bold** plan", 1);
    const saved = await b.save();
    expect(saved).toEqual({ id: expect.any(String), version: event.version + 1 });
    expect((await stored(event.id)).content).toContain("\\*\\*Bold\\*\\* plan");
    const versions = await versionsOf(event.id);
    expect(versions.at(-1)?.author_id).toBe(collab.user.id);

    // The title is emptied in the doc: Save says what is wrong, D1 keeps the last good title.
    const title = b.doc.getText("title");
    title.delete(0, title.length);
    expect(await b.save()).toEqual({ id: expect.any(String), error: "Please fill in both title and content" });
    expect((await stored(event.id)).title).toBe("The storm");
    title.insert(0, "The great storm");
    expect(await b.save()).toEqual({ id: expect.any(String), version: event.version + 2 });
    expect((await stored(event.id)).title).toBe("The great storm");
    b.close();
  });

  it("autosaves fold into one version per author; the last writer leaving keeps the text as a version of its own", async () => {
    const { owner, timeline, event } = await setup();
    const a = await openDoc(timeline.id, event.id, owner.token);
    a.type(" First.", 1);
    const first = await a.waitForSaved((m) => m.version > event.version, "first autosave");
    a.type(" Second.", 1);
    await a.waitForSaved((m) => m.version > first.version, "second autosave");
    let versions = await versionsOf(event.id);
    expect(versions.length).toBe(2);
    expect(versions[1].content).toBe(a.markdown());
    a.close();
    versions = await waitUntil(async () => {
      const list = await versionsOf(event.id);
      return list.length === 3 ? list : null;
    }, "the version of the last writer leaving");
    expect(versions[2].content).toBe(versions[1].content);
    expect(versions[2].author_id).toBe(owner.user.id);
  });

  it("Save right after an autosave seals that version: History does not show the same text twice", async () => {
    const { owner, timeline, event } = await setup();
    const a = await openDoc(timeline.id, event.id, owner.token);
    a.type(" Autosaved.", 1);
    const autosaved = await a.waitForSaved((m) => m.version > event.version, "the autosave");
    expect(await versionsOf(event.id)).toHaveLength(2);
    // Nothing typed since: Save answers with the version D1 holds and adds no copy of it.
    expect(await a.save()).toEqual({ id: expect.any(String), version: autosaved.version });
    expect(await versionsOf(event.id)).toHaveLength(2);
    // Sealed: the next autosave is a version of its own, not folded into the saved one.
    a.type(" After the save.", 1);
    await a.waitForSaved((m) => m.version > autosaved.version, "the next autosave");
    const versions = await versionsOf(event.id);
    expect(versions).toHaveLength(3);
    expect(versions[1].content).toContain("Autosaved.");
    expect(versions[1].content).not.toContain("After the save.");
    expect(versions[2].content).toBe(a.markdown());
    a.close();
    // The last writer leaving still keeps the text as a version of its own (its autosave could still fold).
    await waitUntil(async () => ((await versionsOf(event.id)).length === 4 ? true : null), "the version of the last writer leaving");
  });

  it("text D1 cannot take is named to the writers and never reported saved, until it is fixed", async () => {
    const { timeline, event, collab } = await setup();
    const b = await openDoc(timeline.id, event.id, collab.token);
    const title = b.doc.getText("title");
    title.delete(0, title.length);
    await waitUntil(() => b.problem() === "Please fill in both title and content", "the problem");
    const seen = b.saved();
    await sleep(1500);
    expect(b.saved()).toEqual(seen);
    expect((await stored(event.id)).title).toBe("The storm");
    title.insert(0, "Storm at sea");
    await b.waitForSaved((m) => m.version > (seen?.version ?? event.version), "saved once fixed");
    expect(b.problem()).toBeNull();
    expect((await stored(event.id)).title).toBe("Storm at sea");
    b.close();
  });

  it("carets carry the authenticated name, whatever the client claims", async () => {
    const { owner, timeline, event, collab } = await setup();
    const a = await openDoc(timeline.id, event.id, owner.token);
    const b = await openDoc(timeline.id, event.id, collab.token);
    b.announce("Olive Owner");
    const state = await waitUntil(() => a.awareness.getStates().get(b.doc.clientID), "awareness");
    expect((state as { user: { name: string } }).user.name).toBe("Mara");
    a.close();
    b.close();
  });
});

describe("plain API clients while writers are live", () => {
  it("PATCH content is merged into the doc (typing elsewhere survives); a stale baseVersion is still 409", async () => {
    const { owner, timeline, event, collab } = await setup();
    const b = await openDoc(timeline.id, event.id, collab.token);
    b.type(" Faster!", 1);
    await sleep(30);
    const res = await call("PATCH", `/api/events/${event.id}`, {
      token: owner.token,
      body: { content: "The storm breaks over the old harbour.\n\nMara runs for the boats.", baseVersion: event.version },
    });
    expect(res.status).toBe(200);
    await waitUntil(() => b.markdown().includes("old harbour") && b.markdown().includes("Faster!"), "REST edit in the doc");
    expect(res.json.content).toContain("old harbour");
    expect(res.json.content).toContain("Faster!");
    expect((await stored(event.id)).content).toBe(b.markdown());
    const stale = await call("PATCH", `/api/events/${event.id}`, {
      token: owner.token,
      body: { content: "Overwrite", baseVersion: event.version },
    });
    expect(stale.status).toBe(409);
    expect(b.markdown()).not.toContain("Overwrite");
    // The room hears about the REST edit once.
    const room = await connect(timeline.id, owner.token);
    await call("PATCH", `/api/events/${event.id}`, { token: collab.token, body: { title: "Storm over the harbour" } });
    await room.waitFor((m) => m.type === "sync");
    await waitUntil(() => b.title() === "Storm over the harbour", "title in the doc");
    b.close();
  });

  it("a restore while writers are live reaches the doc and is itself a version", async () => {
    const { owner, timeline, event, collab } = await setup();
    const first = (await versionsOf(event.id)).length;
    const b = await openDoc(timeline.id, event.id, collab.token);
    b.type(" Later text.", 1);
    expect(await b.save()).toMatchObject({ version: expect.any(Number) });
    const list = await call("GET", `/api/events/${event.id}/versions`, { token: owner.token });
    const oldest = list.json.at(-1);
    const restored = await call("POST", `/api/event-versions/${oldest.id}/restore`, { token: owner.token });
    expect(restored.status).toBe(200);
    await waitUntil(() => !b.markdown().includes("Later text."), "restore in the doc");
    expect(restored.json.content).toBe("The storm breaks over the harbour.\n\nMara runs for the boats.");
    expect((await versionsOf(event.id)).length).toBe(first + 2);
    b.close();
  });

  it("without writers, PATCH writes D1 directly and the next doc opens with it", async () => {
    const { owner, timeline, event } = await setup();
    const a = await openDoc(timeline.id, event.id, owner.token);
    a.close();
    await sleep(50);
    const res = await call("PATCH", `/api/events/${event.id}`, {
      token: owner.token,
      body: { content: "Rewritten while nobody was here." },
    });
    expect(res.status).toBe(200);
    const again = await openDoc(timeline.id, event.id, owner.token);
    expect(again.markdown()).toBe("Rewritten while nobody was here.");
    again.close();
  });
});

describe("a server that stops between storing the doc and writing D1 loses nothing", () => {
  const docStub = (eventId: number) => env.EventDoc.get(env.EventDoc.idFromName(String(eventId)));

  /** The doc's D1 write fails from now on, as if the server died right after storing the doc. */
  const crashBeforeD1 = (eventId: number) =>
    runInDurableObject(docStub(eventId), async (doc) => {
      (doc as unknown as { writer: { writeD1: () => Promise<never> } }).writer.writeD1 = () => Promise.reject(new Error("server stopped"));
    });
  /** Whether the doc's stored state (its storage, not its memory) holds `text`. */
  const storedHolds = (eventId: number, text: string) =>
    runInDurableObject(docStub(eventId), async (_doc, ctx) => {
      const slices = [...(await ctx.storage.list<Uint8Array>({ prefix: "doc-state-" })).values()];
      return slices.some((slice) => new TextDecoder().decode(slice).includes(text));
    });

  it("restarted, the doc writes what D1 never got as soon as a writer is back, before an API edit can win", async () => {
    const { timeline, event, collab } = await setup();
    const a = await openDoc(timeline.id, event.id, collab.token);
    await crashBeforeD1(event.id);
    a.type(" The bell rang twice, and nobody on the quay looked up.", 1);
    await waitUntil(() => storedHolds(event.id, "nobody on the quay"), "the doc stored with text D1 has not got", 8000);
    expect((await stored(event.id)).version).toBe(event.version);
    // The writer's tab goes too (a socket keeps the object busy), then the server stops.
    a.close();
    await sleep(200);
    await evictDurableObject(docStub(event.id));

    // The writer comes back: D1 gets the text at once, without anyone typing, as a version by them.
    const back = await openDoc(timeline.id, event.id, collab.token);
    await waitUntil(async () => (await stored(event.id)).content.includes("nobody on the quay"), "D1 write after the restart", 8000);
    const row = await stored(event.id);
    expect(row.version).toBeGreaterThan(event.version);
    expect((await versionsOf(event.id)).at(-1)).toMatchObject({ author_id: collab.user.id });
    await back.waitForSaved((m) => m.version === row.version, "saved after the restart");
    // An API client holding the version from before the stop is refused instead of overwriting the sentence.
    const stale = await call("PATCH", `/api/events/${event.id}`, {
      token: collab.token,
      body: { content: "An API client's text.", baseVersion: event.version },
    });
    expect(stale.status).toBe(409);
    back.close();
  });

  it("when D1 moved on meanwhile, the unsaved text is kept as a version by its writer before D1's text replaces it", async () => {
    const { owner, timeline, event, collab } = await setup();
    const a = await openDoc(timeline.id, event.id, collab.token);
    await crashBeforeD1(event.id);
    a.type(" A sentence only the stored doc has.", 1);
    await waitUntil(() => storedHolds(event.id, "only the stored doc has"), "the doc stored with text D1 has not got", 8000);
    // The writer's tab goes too (a socket keeps the object busy), then the server stops.
    a.close();
    await sleep(200);
    await evictDurableObject(docStub(event.id));
    // Nobody is connected: an API edit goes straight to D1.
    const edit = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { content: "The owner rewrote it." } });
    expect(edit.status).toBe(200);

    const back = await openDoc(timeline.id, event.id, owner.token);
    expect(back.markdown()).toBe("The owner rewrote it.");
    const kept = (await versionsOf(event.id)).filter((v) => v.content.includes("only the stored doc has"));
    expect(kept).toEqual([expect.objectContaining({ author_id: collab.user.id })]);
    back.close();
  });
});
