import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ServerMessageSchema } from "../../durable-objects/protocol";
import { setupSharedScene } from "./doc-helpers";
import { call } from "./helpers";
import { connect, sleep } from "./room-helpers";

// Relationships and progressions (DESIGN.md §12) as shared data: each account's writes have a budget, and every write
// tells the other writers' open views through the timeline's room.

type Res = Awaited<ReturnType<typeof call>>;

/** The answer past a limit: 429, the product's message and a Retry-After in seconds. */
function expectLimited(res: Res, what: string) {
  expect(res.status, res.text).toBe(429);
  expect(res.json.error).toMatch(new RegExp(`^Too many ${what}\\. Please try again in \\d+ minutes?\\.$`));
  expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
}

/** A shared timeline (owner Olive, collaborator Mara) with one scene and two codex entries. */
async function sharedCodex() {
  const shared = await setupSharedScene();
  const entry = async (name: string) => {
    const res = await call("POST", `/api/timelines/${shared.timeline.id}/entities`, {
      token: shared.owner.token,
      body: { kind: "character", name },
    });
    expect(res.status, res.text).toBe(201);
    return res.json as { id: number };
  };
  return { ...shared, edda: await entry("Edda"), tobin: await entry("Tobin") };
}

describe("rate limits on relationships and progressions", () => {
  it("relationship writes (add, change, delete): 429 past the limit per account, nothing written, another writer unaffected", async () => {
    const limited = { ...env, RATE_RELATIONSHIP_WRITES_PER_ACCOUNT_PER_HOUR: "3" };
    const { owner, collab, timeline, edda, tobin } = await sharedCodex();
    const path = `/api/timelines/${timeline.id}/relationships`;
    const add = (token: string, label: string) =>
      call("POST", path, { token, body: { fromId: edda.id, toId: tobin.id, label }, env: limited });
    const first = await add(owner.token, "mother of");
    expect(first.status, first.text).toBe(201);
    const renamed = await call("PATCH", `/api/relationships/${first.json.id}`, {
      token: owner.token,
      body: { label: "aunt of" },
      env: limited,
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await add(owner.token, "rival of")).status).toBe(201);

    const what = "relationship changes";
    expectLimited(await add(owner.token, "ally of"), what);
    expectLimited(
      await call("PATCH", `/api/relationships/${first.json.id}`, { token: owner.token, body: { label: "X" }, env: limited }),
      what,
    );
    expectLimited(await call("DELETE", `/api/relationships/${first.json.id}`, { token: owner.token, env: limited }), what);
    // A malformed or huge body past the limit is refused the same way, never a 500.
    expectLimited(await call("POST", path, { token: owner.token, body: { label: "x".repeat(200_000) }, env: limited }), what);

    // Nothing past the limit was written; reading goes on.
    const listed = await call("GET", path, { token: owner.token, env: limited });
    expect(listed.status).toBe(200);
    expect(listed.json.map((r: { label: string }) => r.label)).toEqual(["aunt of", "rival of"]);
    // The budget is the account's, not the timeline's: the collaborator writes on here.
    const theirs = await add(collab.token, "sister of");
    expect(theirs.status, theirs.text).toBe(201);
  });

  it("progression writes (add, change, delete): 429 past the limit per account, nothing written, another writer unaffected", async () => {
    const limited = { ...env, RATE_PROGRESSION_WRITES_PER_ACCOUNT_PER_HOUR: "3" };
    const { owner, collab, event, edda } = await sharedCodex();
    const path = `/api/entities/${edda.id}/progressions`;
    const add = (token: string, text: string) => call("POST", path, { token, body: { eventId: event.id, text }, env: limited });
    const first = await add(owner.token, "Loses an eye.");
    expect(first.status, first.text).toBe(201);
    const changed = await call("PATCH", `/api/progressions/${first.json.id}`, {
      token: owner.token,
      body: { text: "Loses her left eye." },
      env: limited,
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await add(owner.token, "Becomes queen.")).status).toBe(201);

    const what = "progression changes";
    expectLimited(await add(owner.token, "Dies."), what);
    expectLimited(
      await call("PATCH", `/api/progressions/${first.json.id}`, { token: owner.token, body: { text: "X" }, env: limited }),
      what,
    );
    expectLimited(await call("DELETE", `/api/progressions/${first.json.id}`, { token: owner.token, env: limited }), what);

    const listed = await call("GET", path, { token: owner.token, env: limited });
    expect(listed.status).toBe(200);
    expect(listed.json.map((p: { text: string }) => p.text)).toEqual(["Loses her left eye.", "Becomes queen."]);
    const theirs = await add(collab.token, "Forgives Tobin.");
    expect(theirs.status, theirs.text).toBe(201);
  });
});

describe("relationships and progressions live", () => {
  it("a relationship write tells the room with a 'relationships' sync and a codex notice", async () => {
    const { owner, collab, timeline, edda, tobin } = await sharedCodex();
    const watcher = await connect(timeline.id, collab.token);
    await sleep(50);
    watcher.clear();
    const added = await call("POST", `/api/timelines/${timeline.id}/relationships`, {
      token: owner.token,
      body: { fromId: edda.id, toId: tobin.id, label: "mother of" },
    });
    expect(added.status, added.text).toBe(201);
    const sync = await watcher.waitFor((m) => m.type === "sync", "add sync");
    expect(sync).toEqual({ type: "sync", scope: "relationships" });
    expect(ServerMessageSchema.safeParse(sync).success).toBe(true);
    const note = await watcher.waitFor((m) => m.type === "notification", "notification");
    expect(note.notification).toMatchObject({
      title: "Codex updated",
      message: 'Olive Owner added the relationship "Edda mother of Tobin"',
    });

    watcher.clear();
    expect((await call("PATCH", `/api/relationships/${added.json.id}`, { token: owner.token, body: { label: "aunt of" } })).status).toBe(
      200,
    );
    expect(await watcher.waitFor((m) => m.type === "sync", "rename sync")).toEqual({ type: "sync", scope: "relationships" });
    watcher.clear();
    expect((await call("DELETE", `/api/relationships/${added.json.id}`, { token: owner.token })).status).toBe(200);
    expect(await watcher.waitFor((m) => m.type === "sync", "delete sync")).toEqual({ type: "sync", scope: "relationships" });

    // A refused write tells nobody.
    watcher.clear();
    const refused = await call("POST", `/api/timelines/${timeline.id}/relationships`, {
      token: owner.token,
      body: { fromId: edda.id, toId: edda.id, label: "self" },
    });
    expect(refused.status).toBe(400);
    await sleep(200);
    expect(watcher.messages.filter((m) => m.type === "sync")).toEqual([]);
    watcher.ws.close();
  });

  it("a progression write tells the room with a 'progressions' sync and a codex notice", async () => {
    const { owner, collab, timeline, event, edda } = await sharedCodex();
    const watcher = await connect(timeline.id, collab.token);
    await sleep(50);
    watcher.clear();
    const added = await call("POST", `/api/entities/${edda.id}/progressions`, {
      token: owner.token,
      body: { eventId: event.id, text: "Loses an eye." },
    });
    expect(added.status, added.text).toBe(201);
    const sync = await watcher.waitFor((m) => m.type === "sync", "add sync");
    expect(sync).toEqual({ type: "sync", scope: "progressions" });
    expect(ServerMessageSchema.safeParse(sync).success).toBe(true);
    const note = await watcher.waitFor((m) => m.type === "notification", "notification");
    expect(note.notification).toMatchObject({ title: "Codex updated", message: 'Olive Owner added what changes about "Edda"' });

    watcher.clear();
    expect((await call("PATCH", `/api/progressions/${added.json.id}`, { token: owner.token, body: { text: "Loses both." } })).status).toBe(
      200,
    );
    expect(await watcher.waitFor((m) => m.type === "sync", "change sync")).toEqual({ type: "sync", scope: "progressions" });
    watcher.clear();
    expect((await call("DELETE", `/api/progressions/${added.json.id}`, { token: owner.token })).status).toBe(200);
    expect(await watcher.waitFor((m) => m.type === "sync", "delete sync")).toEqual({ type: "sync", scope: "progressions" });
    watcher.ws.close();
  });
});
