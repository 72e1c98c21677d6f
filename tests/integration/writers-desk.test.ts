import { env } from "cloudflare:workers";
import { strFromU8, unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith, fetchRaw, importBook } from "./helpers";

// The writer's desk (DESIGN §12): a scene's synopsis and notes beside its text, never counted and never in the
// manuscript; carried by the JSON and Markdown exports and read back; beat prompts and a CSV's synopsis land there.

let owner: Awaited<ReturnType<typeof registerUser>>;
let collaborator: Awaited<ReturnType<typeof registerUser>>;
let viewer: Awaited<ReturnType<typeof registerUser>>;
let stranger: Awaited<ReturnType<typeof registerUser>>;

beforeAll(async () => {
  [owner, collaborator, viewer, stranger] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()]);
  await makePremium(owner.user.id);
});

const SYNOPSIS = "Mara finds the *bell* under the harbour wall.\n\n- she hides it\n- Jon sees";
const NOTES = "## Check\nAUTHORNOTE do not print this: the tide tables for 1903.";

async function deskBook() {
  const tl = await createTimeline(owner.token, { title: "The Drowned Bell" });
  await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
  await shareWith(tl.id, owner.user.id, viewer.user.id, "viewer");
  const scene = await createEvent(owner.token, tl.id, { title: "Harbour", content: "one two three", synopsis: SYNOPSIS, notes: NOTES });
  return { tl, scene };
}

describe("synopsis and notes on scenes", () => {
  it("are taken on create and PATCH, returned in the event JSON and the list, and never counted", async () => {
    const { tl, scene } = await deskBook();
    expect(scene).toMatchObject({ synopsis: SYNOPSIS, notes: NOTES, wordCount: 3, content: "one two three" });
    const versionBefore = scene.version;

    const patched = await call("PATCH", `/api/events/${scene.id}`, {
      token: collaborator.token,
      body: { synopsis: "New card.", notes: "A note." },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.json).toMatchObject({ synopsis: "New card.", notes: "A note.", content: "one two three", wordCount: 3 });
    // Not the text: no new version of the scene.
    expect(patched.json.version).toBe(versionBefore);

    const list = await call("GET", `/api/timelines/${tl.id}/events`, { token: viewer.token });
    expect(list.status).toBe(200);
    const listed = (Array.isArray(list.json) ? list.json : list.json.events).find((e: { id: number }) => e.id === scene.id);
    expect(listed).toMatchObject({ synopsis: "New card.", notes: "A note." });

    // A scene without them reads as empty strings; null clears them.
    const plain = await createEvent(owner.token, tl.id, { title: "Plain" });
    expect(plain).toMatchObject({ synopsis: "", notes: "" });
    const cleared = await call("PATCH", `/api/events/${scene.id}`, { token: owner.token, body: { synopsis: null, notes: "" } });
    expect(cleared.json).toMatchObject({ synopsis: "", notes: "" });

    // Long notes do not count: the scene, the book's progress.
    const long = await call("PATCH", `/api/events/${scene.id}`, {
      token: owner.token,
      body: { notes: "word ".repeat(1900), synopsis: "many words ".repeat(900) },
    });
    expect(long.status, long.text).toBe(200);
    expect(long.json.wordCount).toBe(3);
    const progress = await call("GET", `/api/timelines/${tl.id}/progress`, { token: owner.token });
    expect(progress.status, progress.text).toBe(200);
    expect(progress.json.wordCount).toBe(3 + 2);
  });

  it("refuse 10,001 characters, non-text and a viewer or a stranger with clear messages", async () => {
    const { tl, scene } = await deskBook();
    const at = (body: Record<string, unknown>, token = owner.token) => call("PATCH", `/api/events/${scene.id}`, { token, body });
    expect((await at({ synopsis: "x".repeat(10_000) })).status).toBe(200);
    expect(await at({ synopsis: "x".repeat(10_001) })).toMatchObject({
      status: 400,
      json: { error: "Synopsis must be at most 10,000 characters" },
    });
    expect(await at({ notes: "x".repeat(10_001) })).toMatchObject({
      status: 400,
      json: { error: "Notes must be at most 10,000 characters" },
    });
    expect(await at({ notes: 42 })).toMatchObject({ status: 400, json: { error: "Notes must be text" } });
    expect(await at({ synopsis: ["a"] })).toMatchObject({ status: 400, json: { error: "Synopsis must be text" } });
    const create = await call("POST", `/api/timelines/${tl.id}/events`, {
      token: owner.token,
      body: { title: "Too long", content: "x", notes: "n".repeat(10_001) },
    });
    expect(create).toMatchObject({ status: 400, json: { error: "Notes must be at most 10,000 characters" } });

    expect((await at({ notes: "a viewer's note" }, viewer.token)).status).toBe(403);
    expect([403, 404]).toContain((await at({ notes: "a stranger's note" }, stranger.token)).status);
    const stored = await env.DB.prepare("SELECT notes FROM events WHERE id = ?").bind(scene.id).first<{ notes: string }>();
    expect(stored?.notes).toBe(NOTES);
  });

  it("never reach the manuscript .docx, the outline .docx or the EPUB", async () => {
    const { tl } = await deskBook();
    for (const format of ["docx&style=manuscript", "docx", "epub"]) {
      const res = await fetchRaw(`/api/timelines/${tl.id}/export?format=${format}`, owner.token);
      expect(res.status, format).toBe(200);
      const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
      const text = Object.values(files)
        .map((bytes) => strFromU8(bytes))
        .join("\n");
      expect(text, format).toContain("one two three");
      expect(text, format).not.toContain("AUTHORNOTE");
      expect(text, format).not.toContain("harbour wall");
    }
  });

  it("travel in the JSON and Markdown exports and are read back by import", async () => {
    const { tl, scene } = await deskBook();
    await createEvent(owner.token, tl.id, { title: "Plain", content: "> **Synopsis**\nnot a synopsis, the text" });
    const json = await call("GET", `/api/timelines/${tl.id}/export?format=json`, { token: owner.token });
    expect(json.json.events[0]).toMatchObject({ title: "Harbour", synopsis: SYNOPSIS, notes: NOTES });
    expect(json.json.events[1]).not.toHaveProperty("synopsis");

    const md = await fetchRaw(`/api/timelines/${tl.id}/export?format=md`, owner.token);
    const markdown = await md.text();
    expect(markdown).toContain("> **Synopsis**\n> Mara finds the *bell* under the harbour wall.\n>\n> - she hides it");

    for (const [body, type] of [
      [JSON.stringify(json.json), "application/json"],
      [markdown, "text/markdown"],
    ] as const) {
      const imported = await importBook(owner.token, body, type);
      expect(imported.status, imported.text).toBe(201);
      const id = imported.json.id ?? imported.json.timeline?.id;
      const events = (await call("GET", `/api/timelines/${id}/events`, { token: owner.token })).json;
      const list = Array.isArray(events) ? events : events.events;
      expect(list[0], type).toMatchObject({ title: "Harbour", synopsis: SYNOPSIS, notes: NOTES, content: "one two three" });
      expect(list[1], type).toMatchObject({ synopsis: "", notes: "", content: "> **Synopsis**\nnot a synopsis, the text" });
    }
    expect(scene.id).toBeGreaterThan(0);

    const tooLong = { ...json.json, events: [{ ...json.json.events[0], notes: "n".repeat(10_001) }] };
    const refused = await call("POST", "/api/timelines/import", { token: owner.token, body: tooLong });
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatch(/notes.*10,000/);
  });

  it("a beat sheet's prompts and a CSV's synopsis column land in the synopsis, not in the text", async () => {
    const writer = await registerUser();
    const cat = await call("POST", "/api/timelines", { token: writer.token, body: { title: "Cat Book", templateId: "save-the-cat" } });
    expect(cat.status, cat.text).toBe(201);
    const beats = (await call("GET", `/api/timelines/${cat.json.id}/events`, { token: writer.token })).json;
    const scenes = Array.isArray(beats) ? beats : beats.events;
    expect(scenes[0]).toMatchObject({ title: "Opening Image", content: "", wordCount: 0, synopsis: expect.stringContaining("snapshot") });
    const progress = await call("GET", `/api/timelines/${cat.json.id}/progress`, { token: writer.token });
    expect(progress.json.wordCount).toBe(0);

    const csv = 'title,synopsis,notes,content\nHarbour,"Mara finds the bell, hides it",check tides,The wall was cold.\n';
    const imported = await importBook(writer.token, csv, "text/csv");
    expect(imported.status, imported.text).toBe(201);
    const id = imported.json.id ?? imported.json.timeline?.id;
    const rows = (await call("GET", `/api/timelines/${id}/events`, { token: writer.token })).json;
    const list = Array.isArray(rows) ? rows : rows.events;
    expect(list[0]).toMatchObject({
      title: "Harbour",
      synopsis: "Mara finds the bell, hides it",
      notes: "check tides",
      content: "The wall was cold.",
      wordCount: 4,
    });
  });
});

describe("byline on timelines", () => {
  const bookText = async (tl: { id: number }, format: string) => {
    const res = await fetchRaw(`/api/timelines/${tl.id}/export?format=${format}`, owner.token);
    expect(res.status, format).toBe(200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    return files;
  };

  it("defaults to the owner's name; the owner sets it and it names the manuscript's title page and the EPUB's creator", async () => {
    const { tl } = await deskBook();
    const ownerName = owner.user.name as string;
    // No byline set: the API names the owner, for the owner and for those it is shared with; nothing is stored.
    const fresh = await call("GET", `/api/timelines/${tl.id}`, { token: owner.token });
    expect(fresh.json.byline).toBe(ownerName);
    expect((await call("GET", `/api/timelines/${tl.id}`, { token: viewer.token })).json.byline).toBe(ownerName);
    const listed = await call("GET", "/api/timelines", { token: collaborator.token });
    expect(listed.json.find((t: { id: number }) => t.id === tl.id)?.byline).toBe(ownerName);
    const stored = () => env.DB.prepare("SELECT byline FROM timelines WHERE id = ?").bind(tl.id).first<{ byline: string | null }>();
    expect((await stored())?.byline).toBeNull();
    const before = await bookText(tl, "epub");
    expect(strFromU8(before["OEBPS/content.opf"])).toContain(`<dc:creator>${ownerName}</dc:creator>`);

    const set = await call("PATCH", `/api/timelines/${tl.id}`, { token: owner.token, body: { byline: "  M. Harbour & J. Bell  " } });
    expect(set.status, set.text).toBe(200);
    expect(set.json.byline).toBe("M. Harbour & J. Bell");
    const epub = await bookText(tl, "epub");
    expect(strFromU8(epub["OEBPS/content.opf"])).toContain("<dc:creator>M. Harbour &amp; J. Bell</dc:creator>");
    const docx = await bookText(tl, "docx&style=manuscript");
    // The title page's 'by' line and the running head carry the byline; the agent's contact block keeps the
    // writer's own name (a pen name is not who the agent writes back to).
    const xml = strFromU8(docx["word/document.xml"]);
    expect(xml).toContain("by M. Harbour &amp; J. Bell");
    expect(xml).not.toContain(`by ${ownerName}`);
    expect(xml.match(new RegExp(ownerName, "g"))).toHaveLength(1);

    expect((await call("GET", `/api/timelines/${tl.id}`, { token: viewer.token })).json.byline).toBe("M. Harbour & J. Bell");

    // Empty (or null) gives the owner's name back, and stores nothing.
    const cleared = await call("PATCH", `/api/timelines/${tl.id}`, { token: owner.token, body: { byline: "" } });
    expect(cleared.json.byline).toBe(ownerName);
    expect((await stored())?.byline).toBeNull();
    expect(strFromU8((await bookText(tl, "epub"))["OEBPS/content.opf"])).toContain(`<dc:creator>${ownerName}</dc:creator>`);
    await call("PATCH", `/api/timelines/${tl.id}`, { token: owner.token, body: { byline: "Pen Name" } });
    const reset = await call("PATCH", `/api/timelines/${tl.id}`, { token: owner.token, body: { byline: null } });
    expect(reset.json.byline).toBe(ownerName);
    expect((await stored())?.byline).toBeNull();
  });

  it("travels in the JSON export and is read back by its import; an unset one stays the importer's name", async () => {
    const { tl } = await deskBook();
    const unset = await call("GET", `/api/timelines/${tl.id}/export?format=json`, { token: owner.token });
    expect(unset.json.timeline).not.toHaveProperty("byline");
    await call("PATCH", `/api/timelines/${tl.id}`, { token: owner.token, body: { byline: "M. Harbour" } });
    const exported = await call("GET", `/api/timelines/${tl.id}/export?format=json`, { token: owner.token });
    expect(exported.json.timeline.byline).toBe("M. Harbour");
    const markdown = await call("GET", `/api/timelines/${tl.id}/export?format=md`, { token: owner.token });
    expect(markdown.text).toContain("# The Drowned Bell\n\n*By: M. Harbour*\n");
    const fromMarkdown = await importBook(owner.token, markdown.text, "text/markdown");
    expect(fromMarkdown.status, fromMarkdown.text).toBe(201);
    const mdId = fromMarkdown.json.id ?? fromMarkdown.json.timeline?.id;
    expect((await call("GET", `/api/timelines/${mdId}`, { token: owner.token })).json.byline).toBe("M. Harbour");
    const importJson = (doc: unknown) => importBook(owner.token, JSON.stringify(doc), "application/json");
    const imported = await importJson(exported.json);
    expect(imported.status, imported.text).toBe(201);
    const id = imported.json.id ?? imported.json.timeline?.id;
    expect((await call("GET", `/api/timelines/${id}`, { token: owner.token })).json.byline).toBe("M. Harbour");
    const plain = await importJson(unset.json);
    const plainId = plain.json.id ?? plain.json.timeline?.id;
    expect((await call("GET", `/api/timelines/${plainId}`, { token: owner.token })).json.byline).toBe(owner.user.name);
    const row = await env.DB.prepare("SELECT byline FROM timelines WHERE id = ?").bind(plainId).first<{ byline: string | null }>();
    expect(row?.byline).toBeNull();

    const bad = (byline: unknown) => importJson({ ...exported.json, timeline: { ...exported.json.timeline, byline } });
    expect(await bad("b".repeat(201))).toMatchObject({ status: 400, json: { error: "Timeline: byline must be at most 200 characters" } });
    expect(await bad(["M."])).toMatchObject({ status: 400, json: { error: "Timeline: byline must be text" } });
  });

  it("is the owner's alone, at most 200 characters, and text", async () => {
    const { tl } = await deskBook();
    const patch = (body: Record<string, unknown>, token = owner.token) => call("PATCH", `/api/timelines/${tl.id}`, { token, body });
    expect(await patch({ byline: "b".repeat(201) })).toMatchObject({
      status: 400,
      json: { error: "Byline must be at most 200 characters" },
    });
    expect(await patch({ byline: 7 })).toMatchObject({ status: 400, json: { error: "Byline must be text" } });
    expect((await patch({ byline: "b".repeat(200) })).status).toBe(200);
    expect((await patch({ byline: "Co-author" }, collaborator.token)).status).toBe(403);
    expect((await patch({ byline: "Reader" }, viewer.token)).status).toBe(403);
    expect([403, 404]).toContain((await patch({ byline: "Stranger" }, stranger.token)).status);
    const row = await env.DB.prepare("SELECT byline FROM timelines WHERE id = ?").bind(tl.id).first<{ byline: string }>();
    expect(row?.byline).toBe("b".repeat(200));
  });
});
