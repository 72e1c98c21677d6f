import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { createDb } from "../../db/client";
import { buildStoryBible } from "../../worker/services/story-context";
import {
  ORIGIN,
  call,
  createEvent,
  createTimeline,
  makePremium,
  premiumOwnerWithTimeline,
  registerUser,
  shareByEmail,
  shareWith,
} from "./helpers";

// What ends with access stays ended (the data download, a series' codex, who a timeline is shared with), and the
// writes and downloads a flood could use are counted.

type Res = Awaited<ReturnType<typeof call>>;

/** The answer past a limit: 429, the product's message and a Retry-After in seconds. */
function expectLimited(res: Res, what: string) {
  expect(res.status, res.text).toBe(429);
  expect(res.json.error).toMatch(new RegExp(`^Too many ${what}\\. Please try again in \\d+ minutes?\\.$`));
  expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
}

/** The data download's files, as text. */
async function accountZip(token: string) {
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}/api/account/export`, { headers: { Authorization: `Bearer ${token}` } });
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  const body = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  expect(res.status).toBe(200);
  return Object.fromEntries(Object.entries(unzipSync(body)).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

const commentsOf = async (token: string) => JSON.parse((await accountZip(token))["account.json"]).comments as Record<string, unknown>[];

describe("the data download after access ended", () => {
  it("keeps a removed collaborator's own words, never the titles or quoted text of what they can no longer read", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Open Harbour");
    const collab = await registerUser({ name: "Rhea Removed" });
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    const event = await createEvent(owner.token, timelineId, { title: "Dockside" });
    const posted = await call("POST", `/api/events/${event.id}/comments`, { token: collab.token, body: { body: "Tighten this." } });
    expect(posted.status, posted.text).toBe(201);
    await env.DB.prepare("UPDATE comments SET quote = 'the tide came in' WHERE id = ?").bind(posted.json.id).run();

    // While shared: the comment with where it was made.
    expect((await commentsOf(collab.token))[0]).toMatchObject({
      timelineTitle: "Open Harbour",
      eventTitle: "Dockside",
      quote: "the tide came in",
      body: "Tighten this.",
    });

    expect((await call("DELETE", `/api/timelines/${timelineId}/shares/${collab.user.id}`, { token: owner.token })).status).toBe(200);
    expect((await call("PATCH", `/api/timelines/${timelineId}`, { token: owner.token, body: { title: "Secret Sequel" } })).status).toBe(
      200,
    );
    expect((await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { title: "Hidden Twist" } })).status).toBe(200);

    const files = await accountZip(collab.token);
    const [comment] = JSON.parse(files["account.json"]).comments;
    expect(comment).toMatchObject({ id: posted.json.id, body: "Tighten this.", timelineTitle: null, eventTitle: null, quote: null });
    const everything = Object.values(files).join("\n");
    for (const secret of ["Secret Sequel", "Hidden Twist", "Open Harbour", "Dockside", "the tide came in"]) {
      expect(everything).not.toContain(secret);
    }
    // The owner's own download still names their timeline.
    expect((await commentsOf(owner.token)).length).toBe(0);
    expect(Object.keys(await accountZip(owner.token)).some((name) => name.startsWith("timelines/"))).toBe(true);
  });
});

describe("rate limits on moves, comment edits, series writes and exports", () => {
  it("scene moves: 429 past the limit per account; the refused move changed nothing; edits and other writers go on", async () => {
    const limited = { ...env, RATE_MOVES_PER_ACCOUNT_PER_HOUR: "3" };
    const writer = await registerUser({ name: "Mo Mover" });
    const other = await registerUser({ name: "Stilla Still" });
    const timeline = await createTimeline(writer.token, { title: "Shuffle" });
    const a = await createEvent(writer.token, timeline.id, { title: "A" });
    await createEvent(writer.token, timeline.id, { title: "B" });
    const move = (token: string, id: number, position: number) =>
      call("PATCH", `/api/events/${id}`, { token, body: { position }, env: limited });
    for (const position of [1, 0, 1]) expect((await move(writer.token, a.id, position)).status).toBe(200);
    expectLimited(await move(writer.token, a.id, 0), "scene moves");
    const list = await call("GET", `/api/timelines/${timeline.id}/events`, { token: writer.token });
    expect(list.json.map((e: { title: string }) => e.title)).toEqual(["B", "A"]);
    // Editing words is no move; another writer moves on.
    expect((await call("PATCH", `/api/events/${a.id}`, { token: writer.token, body: { title: "A2" }, env: limited })).status).toBe(200);
    const theirs = await createTimeline(other.token);
    const mine = await createEvent(other.token, theirs.id);
    await createEvent(other.token, theirs.id);
    expect((await move(other.token, mine.id, 1)).status).toBe(200);
  });

  it("comment edits and resolves: 429 past the limit per account", async () => {
    const limited = { ...env, RATE_COMMENT_EDITS_PER_ACCOUNT_PER_HOUR: "2" };
    const writer = await registerUser({ name: "Eda Editor" });
    const timeline = await createTimeline(writer.token);
    const event = await createEvent(writer.token, timeline.id);
    const posted = await call("POST", `/api/events/${event.id}/comments`, { token: writer.token, body: { body: "One" } });
    const edit = (body: Record<string, unknown>) =>
      call("PATCH", `/api/comments/${posted.json.id}`, { token: writer.token, body, env: limited });
    expect((await edit({ body: "Two" })).status).toBe(200);
    expect((await edit({ resolved: true })).status).toBe(200);
    expectLimited(await edit({ body: "Three" }), "comment changes");
    const list = await call("GET", `/api/events/${event.id}/comments`, { token: writer.token });
    expect(list.json[0]).toMatchObject({ body: "Two", resolved: true });
  });

  it("series writes: 429 past the limit per account; reading the series is not counted", async () => {
    const limited = { ...env, RATE_SERIES_WRITES_PER_ACCOUNT_PER_HOUR: "2" };
    const writer = await registerUser({ name: "Sera Series" });
    await makePremium(writer.user.id);
    const one = await createTimeline(writer.token, { title: "Book one" });
    const two = await createTimeline(writer.token, { title: "Book two" });
    const created = await call("POST", "/api/series", {
      token: writer.token,
      body: { title: "Saga", timelineIds: [one.id] },
      env: limited,
    });
    expect(created.status, created.text).toBe(201);
    const rename = () => call("PATCH", `/api/series/${created.json.id}`, { token: writer.token, body: { title: "Saga!" }, env: limited });
    expect((await rename()).status).toBe(200);
    expectLimited(await rename(), "series changes");
    expectLimited(
      await call("POST", `/api/series/${created.json.id}/books`, { token: writer.token, body: { timelineId: two.id }, env: limited }),
      "series changes",
    );
    const seen = await call("GET", `/api/series/${created.json.id}`, { token: writer.token, env: limited });
    expect(seen.json).toMatchObject({ title: "Saga!", timelines: [{ id: one.id }] });
  });

  it("timeline exports (any format): 429 past the limit per account; bad input is a 400, never a 5xx", async () => {
    const limited = { ...env, RATE_TIMELINE_EXPORTS_PER_ACCOUNT_PER_HOUR: "3" };
    const writer = await registerUser({ name: "Ex Porter" });
    const timeline = await createTimeline(writer.token, { title: "Outbound" });
    await createEvent(writer.token, timeline.id, { title: "Leaving" });
    const get = (format: string) =>
      call("GET", `/api/timelines/${timeline.id}/export?format=${format}`, { token: writer.token, env: limited });
    expect((await get("bogus")).status).toBe(400);
    for (const format of ["json", "docx", "epub"]) expect((await get(format)).status).toBe(200);
    expectLimited(await get("md"), "exports");
    expectLimited(await get("epub"), "exports");
  });
});

describe("a series' codex for the reader of one book", () => {
  it("lists the entries of books they can read (created or linked there), never the other books' own", async () => {
    const owner = await registerUser({ name: "Cody Codex" });
    await makePremium(owner.user.id);
    const one = await createTimeline(owner.token, { title: "Dawn" });
    const two = await createTimeline(owner.token, { title: "Dusk" });
    const entity = async (timelineId: number, name: string) => {
      const res = await call("POST", `/api/timelines/${timelineId}/entities`, { token: owner.token, body: { kind: "character", name } });
      expect(res.status, res.text).toBe(201);
      return res.json.id as number;
    };
    await entity(one.id, "Ash");
    const spoiler = await entity(two.id, "Twin Brother");
    const shared = await entity(two.id, "Old Ferryman");
    await createEvent(owner.token, two.id, { title: "Reveal", entityIds: [spoiler, shared] });
    const made = await call("POST", "/api/series", { token: owner.token, body: { title: "Day", timelineIds: [one.id, two.id] } });
    expect(made.status, made.text).toBe(201);
    // Book 2's ferryman also appears in book 1.
    await createEvent(owner.token, one.id, { title: "Crossing", entityIds: [shared] });
    const viewer = await registerUser({ name: "Vera Viewer" });
    await shareWith(one.id, owner.user.id, viewer.user.id, "viewer");

    const names = async (token: string, timelineId: number) =>
      (await call("GET", `/api/timelines/${timelineId}/entities`, { token })).json.map((e: { name: string }) => e.name);
    expect(await names(owner.token, one.id)).toEqual(["Ash", "Old Ferryman", "Twin Brother"]);
    expect(await names(viewer.token, one.id)).toEqual(["Ash", "Old Ferryman"]);
    const exported = await call("GET", `/api/timelines/${one.id}/export?format=json`, { token: viewer.token });
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain("Twin Brother");
    expect(exported.text).toContain("Old Ferryman");
    // The mind map draws the same codex.
    const mapLabels = async (token: string) =>
      (await call("GET", `/api/timelines/${one.id}/map`, { token })).json.nodes
        .filter((n: { kind: string }) => n.kind === "entity")
        .map((n: { label: string }) => n.label)
        .sort();
    expect(await mapLabels(owner.token)).toEqual(["Ash", "Old Ferryman", "Twin Brother"]);
    expect(await mapLabels(viewer.token)).toEqual(["Ash", "Old Ferryman"]);
    // And so does the AI's story bible for a writer of that book.
    const bible = (writer: { id: number }) =>
      buildStoryBible(createDb(env.DB), {}, { id: one.id, title: "Dawn", description: null }, undefined, writer);
    expect(await bible(owner.user)).toContain("Twin Brother");
    expect(await bible(viewer.user)).toContain("Old Ferryman");
    expect(await bible(viewer.user)).not.toContain("Twin Brother");

    // Shared on book 2 as well: its entries follow.
    await shareWith(two.id, owner.user.id, viewer.user.id, "viewer");
    expect(await names(viewer.token, one.id)).toEqual(["Ash", "Old Ferryman", "Twin Brother"]);
  });
});

describe("GET /api/timelines/{id}/people", () => {
  it("names everyone only for writers who can edit; a viewer or a link holder gets the owner and themselves", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Guest list");
    const cora = await registerUser({ name: "Cora Collab" });
    const vic = await registerUser({ name: "Vic Viewer" });
    const lurk = await registerUser({ name: "Lurk Linkholder" });
    await shareByEmail(timelineId, owner.token, cora.email, "collaborator");
    await shareByEmail(timelineId, owner.token, vic.email, "viewer");
    const { shareCode } = (await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } })).json;
    const people = async (token: string, query = "") => {
      const res = await call("GET", `/api/timelines/${timelineId}/people${query}`, { token });
      expect(res.status, res.text).toBe(200);
      return res.json.map((p: { name: string }) => p.name);
    };
    expect(await people(owner.token)).toEqual(["Cora Collab", "Olive Owner", "Vic Viewer"]);
    expect(await people(cora.token)).toEqual(["Cora Collab", "Olive Owner", "Vic Viewer"]);
    expect(await people(vic.token)).toEqual(["Olive Owner", "Vic Viewer"]);
    expect(await people(lurk.token, `?share=${shareCode}`)).toEqual(["Olive Owner"]);
    expect((await call("GET", `/api/timelines/${timelineId}/people`, { token: lurk.token })).status).toBe(404);
  });
});
