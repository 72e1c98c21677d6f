import * as encoding from "lib0/encoding";
import { describe, expect, it } from "vitest";
import { CloseCodes } from "../../durable-objects/close-codes";
import { BROADCAST_MS, CARETS_MS, GatheredBroadcast, GatheredCarets } from "../../durable-objects/doc-broadcast";
import { type DocClient, openDoc, setupSharedScene, storedEvent, waitUntil } from "./doc-helpers";
import { registerUser, shareWith } from "./helpers";
import { sleep } from "./room-helpers";
import * as Y from "yjs";

// Many writers typing in one scene: the doc gathers its updates and sends them to every writer as one per
// BROADCAST_MS, not one frame per keystroke per writer (100 writers at 5 keys/s were 50,000 frames a second).

/** A scene with ten collaborators ('Writer 0' to 'Writer 9') and its owner (the reader) in its doc. */
async function tenWritersAndReader() {
  const { owner, timeline, event } = await setupSharedScene("START.");
  const writers: DocClient[] = [];
  for (let i = 0; i < 10; i++) {
    const w = await registerUser({ name: `Writer ${i}` });
    await shareWith(timeline.id, owner.user.id, w.user.id, "collaborator");
    writers.push(await openDoc(timeline.id, event.id, w.token));
  }
  return { event, writers, reader: await openDoc(timeline.id, event.id, owner.token) };
}

describe("the shared doc gathers its updates before it sends them", () => {
  it("ten writers typing at once: a reader gets a few merged frames, not one per keystroke, and every letter", async () => {
    const { event, writers, reader } = await tenWritersAndReader();
    await sleep(BROADCAST_MS * 3);
    const before = reader.frames.updates;
    // 10 writers × 10 keystrokes, each its own update, all sent within a few milliseconds.
    const letters = "abcdefghij";
    for (let n = 0; n < 10; n++) {
      for (const [k, w] of writers.entries()) w.type(letters[k], 0, 0);
    }
    await waitUntil(() => [...letters].every((l) => reader.markdown().split(l).length === 11), "every letter at the reader", 8000);
    const received = reader.frames.updates - before;
    // One frame per keystroke would be 100.
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(30);
    // Every writer has every letter too, and the same text.
    await waitUntil(() => writers.every((w) => w.markdown() === reader.markdown()), "every writer converged", 8000);
    for (const w of writers) w.close();
    reader.close();
    // D1 gets all of it once the last writer has left.
    const stored = await waitUntil(
      async () => {
        const row = await storedEvent(event.id);
        return row.content.length === "START.".length + 100 ? row : null;
      },
      "D1 holds every letter",
      8000,
    );
    expect(stored.content).toBe(reader.markdown());
  });

  it("a writer's own keystroke still reaches the others within a moment", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("START.");
    const a = await openDoc(timeline.id, event.id, owner.token);
    const b = await openDoc(timeline.id, event.id, collab.token);
    const started = Date.now();
    a.type("x", 0, 0);
    await waitUntil(() => b.markdown().startsWith("x"), "the keystroke at the other writer", 3000);
    expect(Date.now() - started).toBeLessThan(1000);
    a.close();
    b.close();
  });
});

describe("the shared doc gathers its writers' carets too", () => {
  it("ten writers moving their carets at once: a reader gets a few frames, each writer's latest caret, the names as signed in", async () => {
    const { writers, reader } = await tenWritersAndReader();
    await sleep(CARETS_MS * 3);
    const before = reader.frames.carets;
    // 10 writers × 10 caret moves, each its own frame, all sent within a few milliseconds.
    for (let n = 1; n <= 10; n++) {
      for (const w of writers) w.moveCaret(n);
    }
    const anchor = (w: DocClient) =>
      (reader.awareness.getStates().get(w.doc.clientID) as { cursor?: { anchor: number } } | undefined)?.cursor?.anchor;
    await waitUntil(() => writers.every((w) => anchor(w) === 10), "every writer's last caret at the reader", 8000);
    const received = reader.frames.carets - before;
    // One frame per move would be 100.
    expect(received).toBeGreaterThan(0);
    expect(received).toBeLessThan(30);
    // The name each caret shows is the one its writer signed in with, not the one the client claimed.
    for (const [k, w] of writers.entries()) {
      expect((reader.awareness.getStates().get(w.doc.clientID) as { user: { name: string } }).user.name).toBe(`Writer ${k}`);
    }
    // A writer who leaves takes their caret with them.
    writers[0].close();
    await waitUntil(() => !reader.awareness.getStates().has(writers[0].doc.clientID), "the leaver's caret gone", 5000);
    for (const w of writers.slice(1)) w.close();
    reader.close();
  });

  it("a caret still reaches the others within a moment", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("START.");
    const a = await openDoc(timeline.id, event.id, owner.token);
    const b = await openDoc(timeline.id, event.id, collab.token);
    const started = Date.now();
    a.moveCaret(3);
    await waitUntil(() => b.awareness.getStates().get(a.doc.clientID), "the caret at the other writer", 3000);
    expect(Date.now() - started).toBeLessThan(1000);
    a.close();
    b.close();
  });
});

describe("GatheredCarets", () => {
  it("sends nothing until its time, then each changed client once", async () => {
    const sent: number[][] = [];
    const gathered = new GatheredCarets((ids) => sent.push(ids), 20);
    gathered.push([1, 2]);
    gathered.push([2, 3]);
    expect(sent).toHaveLength(0);
    await sleep(60);
    expect(sent).toEqual([[1, 2, 3]]);
    gathered.flush();
    expect(sent).toHaveLength(1);
  });
});

/** A y-protocols update frame of what `change` does on a copy of the client's doc. */
function frameOf(client: DocClient, change: (doc: Y.Doc) => void) {
  const fork = new Y.Doc();
  Y.applyUpdate(fork, Y.encodeStateAsUpdate(client.doc));
  const before = Y.encodeStateVector(fork);
  change(fork);
  const e = encoding.createEncoder();
  encoding.writeVarUint(e, 0);
  encoding.writeVarUint(e, 2);
  encoding.writeVarUint8Array(e, Y.encodeStateAsUpdate(fork, before));
  return encoding.toUint8Array(e);
}

describe("plain typing is checked without copying its paragraph, and only plain typing", () => {
  it("characters typed into an empty text node inside a horizontal rule are refused, never stored", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("START.");
    const bystander = await openDoc(timeline.id, event.id, owner.token);
    const attacker = await openDoc(timeline.id, event.id, collab.token);
    attacker.sendRaw(
      frameOf(attacker, (doc) => {
        const rule = new Y.XmlElement("horizontalRule");
        rule.insert(0, [new Y.XmlText()]);
        doc.getXmlFragment("content").push([rule]);
      }),
    );
    await sleep(200);
    if (attacker.closed.code === undefined) {
      // The empty text node got in: typing into it is no plain typing into text that was there.
      await waitUntil(() => attacker.doc.getXmlFragment("content").length === 2, "the rule back at the attacker");
      attacker.sendRaw(
        frameOf(attacker, (doc) => {
          ((doc.getXmlFragment("content").get(1) as Y.XmlElement).get(0) as Y.XmlText).insert(0, "hidden words");
        }),
      );
    }
    await waitUntil(() => attacker.closed.code, "the attacker closed", 5000);
    expect(attacker.closed.code).toBe(CloseCodes.docRefused);
    await sleep(100);
    expect(bystander.markdown()).not.toContain("hidden words");
    bystander.close();
  });
});

describe("GatheredBroadcast", () => {
  it("sends nothing until its time, then one merged update that holds every gathered one", async () => {
    const source = new Y.Doc();
    const updates: Uint8Array[] = [];
    source.on("update", (u: Uint8Array) => updates.push(u));
    for (const ch of "hello") source.getText("t").insert(source.getText("t").length, ch);
    const sent: Uint8Array[] = [];
    const gathered = new GatheredBroadcast((u) => sent.push(u), 20);
    for (const u of updates) gathered.push(u);
    expect(sent).toHaveLength(0);
    await sleep(60);
    expect(sent).toHaveLength(1);
    const copy = new Y.Doc();
    Y.applyUpdate(copy, sent[0]);
    expect(copy.getText("t").toString()).toBe("hello");
    // Nothing gathered: nothing sent.
    gathered.flush();
    expect(sent).toHaveLength(1);
  });
});
