import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import * as Y from "yjs";
import { describe, expect, it } from "vitest";
import { DocFields, MetaKeys } from "../../db/domain/rich-text";
import { openDoc, setupSharedScene, storedEvent, waitUntil } from "./doc-helpers";
import { call } from "./helpers";
import { sleep } from "./room-helpers";

// The server stops at the worst moments while writers stay connected: their resync is always taken, and every
// character they typed reaches D1 (the fault scenarios of scripts/test-faults.mjs, in workerd).

const docStub = (eventId: number) => env.EventDoc.get(env.EventDoc.idFromName(String(eventId)));
type Internals = {
  writer: { writeD1: (...args: unknown[]) => Promise<unknown> };
  ctx: DurableObjectState;
};

/** The server dies right after its next D1 write: D1 has the text, storage gets nothing more. */
const dieAfterD1 = (eventId: number) =>
  runInDurableObject(docStub(eventId), async (doc, ctx) => {
    const internals = doc as unknown as Internals;
    const write = internals.writer.writeD1.bind(internals.writer);
    internals.writer.writeD1 = async (...args: unknown[]) => {
      const written = await write(...args);
      (ctx.storage as { put: unknown }).put = async () => undefined;
      return written;
    };
  });

/** Stops the doc's object (a restart): its memory goes, its storage stays. */
async function restart(eventId: number) {
  await evictDurableObject(docStub(eventId));
  await sleep(50);
}

describe("a writer's resync after a restart", () => {
  it("is taken from a writer who typed nothing, right after the doc loaded", async () => {
    const { timeline, event, collab } = await setupSharedScene();
    const a = await openDoc(timeline.id, event.id, collab.token);
    await a.waitForSaved(() => true, "the marker the doc set at load");
    a.goOffline();
    await restart(event.id);
    await a.reconnect();
    await sleep(300);
    expect(a.closed.code).toBeUndefined();
    a.type(" Still here.", 1);
    await waitUntil(async () => (await storedEvent(event.id)).content.includes("Still here."), "D1 has the sentence", 8000);
    expect(a.closed.code).toBeUndefined();
    a.close();
  });

  it("is taken when the server died after D1 got the text and before it stored the doc's save marker", async () => {
    const { timeline, event, collab, owner } = await setupSharedScene();
    const a = await openDoc(timeline.id, event.id, collab.token);
    const b = await openDoc(timeline.id, event.id, owner.token);
    await dieAfterD1(event.id);
    a.type(" The bell rang twice.", 1);
    await waitUntil(async () => (await storedEvent(event.id)).content.includes("rang twice"), "D1 write", 8000);
    const version = (await storedEvent(event.id)).version;
    await a.waitForSaved((s) => s.version === version, "the marker the stored doc lacks");
    await b.waitForSaved((s) => s.version === version, "the marker the stored doc lacks");
    // Both writers lose the server, which restarts; meanwhile one types on.
    a.goOffline();
    b.goOffline();
    await restart(event.id);
    a.type(" Nobody looked up.", 1);
    await a.reconnect();
    await b.reconnect();
    await waitUntil(async () => (await storedEvent(event.id)).content.includes("Nobody looked up."), "D1 after the restart", 8000);
    await sleep(300);
    expect(a.closed.code).toBeUndefined();
    expect(b.closed.code).toBeUndefined();
    // Everyone holds the text once, as D1 does; the server's marker wins over the stale copies.
    const text = "Mara runs for the boats. The bell rang twice. Nobody looked up.";
    expect((await storedEvent(event.id)).content).toContain(text);
    await waitUntil(() => b.markdown().includes(text), "the other writer has it");
    expect(a.markdown()).toBe(b.markdown());
    const row = await storedEvent(event.id);
    await a.waitForSaved((s) => s.version === row.version, "the restarted server's marker");
    a.close();
    b.close();
  });

  it("a forged save marker or problem is replaced by the server's own at once", async () => {
    const { timeline, event, collab, owner } = await setupSharedScene();
    const a = await openDoc(timeline.id, event.id, collab.token);
    const b = await openDoc(timeline.id, event.id, owner.token);
    const real = await b.waitForSaved(() => true);
    a.doc.getMap(DocFields.meta).set(MetaKeys.saved, { version: 999, sv: "" });
    a.doc.getMap(DocFields.meta).set(MetaKeys.problem, "Forged");
    await sleep(300);
    expect(a.closed.code).toBeUndefined();
    expect(b.saved()).toEqual(real);
    expect(b.problem()).toBeNull();
    expect(a.saved()).toEqual(real);
    // The doc's identity and anything else of the server's stay out of a writer's reach.
    a.doc.getMap(DocFields.meta).set(MetaKeys.epoch, "forged-epoch");
    await waitUntil(() => a.closed.code, "refused");
    expect(a.closed.code).toBe(4409);
    const c = await openDoc(timeline.id, event.id, collab.token);
    a.doc.getMap(DocFields.meta).set(MetaKeys.saved, { version: 1, sv: "not base64!" });
    const forged = Y.encodeStateAsUpdate(a.doc);
    c.doc.transact(() => Y.applyUpdate(c.doc, forged));
    await waitUntil(() => c.closed.code, "refused");
    b.close();
    c.close();
  });
});

describe("keystrokes that arrive while D1 is written", () => {
  it("are stored as unsaved, so a restart writes them before an API edit can win", async () => {
    const { timeline, event, collab, owner } = await setupSharedScene();
    const a = await openDoc(timeline.id, event.id, collab.token);
    // D1's write is slow and a writer types during it; the server dies before its next save stores anything.
    await runInDurableObject(docStub(event.id), async (doc, ctx) => {
      const writer = (doc as unknown as { writer: { write: (o: object) => Promise<unknown>; writeD1: Internals["writer"]["writeD1"] } })
        .writer;
      const write = writer.write.bind(writer);
      const writeD1 = writer.writeD1.bind(writer);
      writer.writeD1 = async (...args: unknown[]) => {
        await new Promise((r) => setTimeout(r, 1500));
        return writeD1(...args);
      };
      let calls = 0;
      writer.write = (o: object) => {
        if (calls++ === 0) return write(o);
        (ctx.storage as { put: unknown }).put = async () => undefined;
        return Promise.resolve({ error: "server stopped" });
      };
    });
    a.type(" First words.", 1);
    await sleep(1800);
    a.type(" Typed during the write.", 1);
    await waitUntil(async () => (await storedEvent(event.id)).content.includes("First words."), "the first write", 8000);
    expect((await storedEvent(event.id)).content).not.toContain("Typed during");
    await sleep(1500);
    a.close();
    await sleep(100);
    await restart(event.id);
    // An API client's edit now: the restarted doc first writes what the writer typed during the write.
    const row = await storedEvent(event.id);
    const back = await openDoc(timeline.id, event.id, owner.token);
    await waitUntil(async () => (await storedEvent(event.id)).content.includes("Typed during the write."), "written at load", 8000);
    expect((await storedEvent(event.id)).version).toBeGreaterThan(row.version);
    back.close();
    const api = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { title: "Renamed" } });
    expect(api.status).toBe(200);
    expect((await storedEvent(event.id)).content).toContain("First words. Typed during the write.");
  });
});

describe("typing faster than the doc's rate", () => {
  it("a burst of 300 keystrokes in a second is slowed down, not refused: every character reaches everyone and D1", async () => {
    const { timeline, event, collab, owner } = await setupSharedScene();
    const a = await openDoc(timeline.id, event.id, collab.token);
    const b = await openDoc(timeline.id, event.id, owner.token);
    const burst = Array.from({ length: 300 }, (_, i) => String.fromCharCode(97 + (i % 26))).join("");
    for (const ch of burst) {
      a.type(ch, 1);
      if (ch === "z") await sleep(80);
    }
    await waitUntil(() => b.markdown().includes(burst), "the other writer has the burst", 8000);
    expect(a.closed.code).toBeUndefined();
    await waitUntil(async () => (await storedEvent(event.id)).content.includes(burst), "D1 has the burst", 10_000);
    a.close();
    b.close();
  });
});
