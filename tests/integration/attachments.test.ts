import { env } from "cloudflare:workers";
import { createDb } from "../../db/client";
import { purgeTrash } from "../../worker/services/trash";
import { beforeAll, describe, expect, it } from "vitest";
import { connect, sleep } from "./room-helpers";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith, fetchRaw, type User } from "./helpers";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const MB = 1024 * 1024;

// A 1×1 PNG, and the first bytes of other kinds (what the server sniffs).
const PNG = Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="), (c) =>
  c.charCodeAt(0),
);
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n");
const ZIP = Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]);
const EXE = Uint8Array.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0]);

let owner: User, collaborator: User, viewer: User, linkGuest: User, stranger: User;

beforeAll(async () => {
  [owner, collaborator, viewer, linkGuest, stranger] = await Promise.all([
    registerUser({ name: "Olive" }),
    registerUser({ name: "Cora" }),
    registerUser({ name: "Vic" }),
    registerUser({ name: "Lin" }),
    registerUser({ name: "Stan" }),
  ]);
  // Many timelines (one per test); the quota test uses a Free owner of its own.
  await makePremium(owner.user.id);
});

async function upload(eventId: number, token: string | undefined, file: Blob | string | null, name = "map.png", query = "") {
  const form = new FormData();
  if (file instanceof Blob) form.append("file", file, name);
  else if (typeof file === "string") form.append("file", file);
  const res = await fetchRaw(`/api/events/${eventId}/attachments${query}`, token, { method: "POST", body: form });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null, text };
}

const png = () => new Blob([PNG], { type: "image/png" });

/** A timeline with a collaborator, a viewer and a viewer link; one event. */
async function fixture() {
  const tl = await createTimeline(owner.token, { title: "Files" });
  const shareCode = `code-${tl.id}-${Math.random().toString(36).slice(2, 8)}`;
  await env.DB.prepare("UPDATE timelines SET share_code = ?, share_role = 'viewer' WHERE id = ?").bind(shareCode, tl.id).run();
  await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
  await shareWith(tl.id, owner.user.id, viewer.user.id, "viewer");
  const event = await createEvent(owner.token, tl.id, { title: "The map" });
  return { timelineId: tl.id as number, eventId: event.id as number, shareCode };
}

const keyOf = async (id: number) =>
  (await env.DB.prepare("SELECT r2_key AS k FROM files WHERE id = ?").bind(id).first<{ k: string }>())?.k ?? null;

describe("attachments: upload, download, delete by role", () => {
  it("owner and collaborator upload; the row, the object and the event's list agree", async () => {
    const { timelineId, eventId } = await fixture();
    const mine = await upload(eventId, owner.token, png(), "map.png");
    expect(mine.status, mine.text).toBe(201);
    expect(mine.json).toEqual({ id: expect.any(Number), filename: "map.png", contentType: "image/png", size: PNG.length });
    const theirs = await upload(eventId, collaborator.token, new Blob([PDF], { type: "application/pdf" }), "notes.pdf");
    expect(theirs.status, theirs.text).toBe(201);

    const key = await keyOf(mine.json.id);
    expect(key).toMatch(new RegExp(`^t/${timelineId}/e/${eventId}/[0-9a-f-]{36}$`));
    expect(await env.FILES.head(key!)).not.toBeNull();
    // Storage counts against the timeline's owner, whoever uploads.
    const row = await env.DB.prepare("SELECT owner_id, uploaded_by FROM files WHERE id = ?").bind(theirs.json.id).first();
    expect(row).toEqual({ owner_id: owner.user.id, uploaded_by: collaborator.user.id });

    const list = await call("GET", `/api/timelines/${timelineId}/events`, { token: viewer.token });
    expect(list.json[0].attachments).toEqual([mine.json, theirs.json]);
  });

  it("viewer 403 like other edits, share-link reader 403, stranger 404, anonymous 401; nothing is stored", async () => {
    const { eventId, shareCode } = await fixture();
    const patch = await call("PATCH", `/api/events/${eventId}`, { token: viewer.token, body: { title: "x" } });
    const asViewer = await upload(eventId, viewer.token, png());
    expect(asViewer.status).toBe(403);
    expect(asViewer.json).toEqual(patch.json);
    expect(asViewer.json).toEqual({ error: "You have view-only access to this timeline" });
    expect((await upload(eventId, linkGuest.token, png(), "a.png", `?share=${shareCode}`)).status).toBe(403);
    expect(await upload(eventId, stranger.token, png())).toMatchObject({ status: 404, json: { error: "Event not found" } });
    expect(await upload(eventId, undefined, png())).toMatchObject({ status: 401, json: { error: "Not authenticated" } });
    expect((await upload(999_999_999, owner.token, png())).status).toBe(404);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM files WHERE event_id = ?").bind(eventId).first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("download: every reader (share link included) gets the bytes with safe headers; strangers 404, anonymous 401", async () => {
    const { eventId, shareCode } = await fixture();
    const image = (await upload(eventId, owner.token, png(), "map.png")).json;
    const doc = (await upload(eventId, owner.token, new Blob([ZIP], { type: DOCX }), "Chapter 1.docx")).json;
    const text = (await upload(eventId, owner.token, new Blob(["Dear diary"], { type: "text/plain" }), "Café notes.txt")).json;

    for (const [token, q] of [
      [owner.token, ""],
      [collaborator.token, ""],
      [viewer.token, ""],
      [linkGuest.token, `?share=${shareCode}`],
    ] as const) {
      const res = await fetchRaw(`/api/attachments/${image.id}${q}`, token);
      expect(res.status).toBe(200);
      expect(new Uint8Array(await res.arrayBuffer())).toEqual(PNG);
      expect(res.headers.get("Content-Type")).toBe("image/png");
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(res.headers.get("Content-Disposition")).toBe('inline; filename="map.png"');
    }
    const docRes = await fetchRaw(`/api/attachments/${doc.id}`, viewer.token);
    expect(docRes.headers.get("Content-Type")).toBe(DOCX);
    expect(docRes.headers.get("Content-Disposition")).toBe('attachment; filename="Chapter 1.docx"');
    const textRes = await fetchRaw(`/api/attachments/${text.id}`, viewer.token);
    expect(await textRes.text()).toBe("Dear diary");
    expect(textRes.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(textRes.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Caf_ notes.txt"; filename*=UTF-8''Caf%C3%A9%20notes.txt`,
    );

    expect((await fetchRaw(`/api/attachments/${image.id}`, linkGuest.token)).status).toBe(404);
    expect((await fetchRaw(`/api/attachments/${image.id}?share=wrong`, linkGuest.token)).status).toBe(404);
    const strangerRes = await fetchRaw(`/api/attachments/${image.id}`, stranger.token);
    expect(strangerRes.status).toBe(404);
    expect(await strangerRes.json()).toEqual({ error: "Attachment not found" });
    expect((await fetchRaw(`/api/attachments/${image.id}`)).status).toBe(401);
    expect((await fetchRaw("/api/attachments/abc", owner.token)).status).toBe(404);
  });

  it("delete: collaborator yes (row and object gone), viewer 403, share-link reader 403, stranger 404, anonymous 401", async () => {
    const { eventId, shareCode } = await fixture();
    const a = (await upload(eventId, owner.token, png())).json;
    const key = (await keyOf(a.id))!;
    expect((await call("DELETE", `/api/attachments/${a.id}`, { token: viewer.token })).status).toBe(403);
    expect((await call("DELETE", `/api/attachments/${a.id}?share=${shareCode}`, { token: linkGuest.token })).status).toBe(403);
    expect((await call("DELETE", `/api/attachments/${a.id}`, { token: stranger.token })).status).toBe(404);
    expect((await call("DELETE", `/api/attachments/${a.id}`)).status).toBe(401);
    expect(await env.FILES.head(key)).not.toBeNull();

    const res = await call("DELETE", `/api/attachments/${a.id}`, { token: collaborator.token });
    expect(res).toMatchObject({ status: 200, json: { success: true } });
    expect(await keyOf(a.id)).toBeNull();
    expect(await env.FILES.head(key)).toBeNull();
    expect((await fetchRaw(`/api/attachments/${a.id}`, owner.token)).status).toBe(404);
    expect((await call("DELETE", `/api/attachments/${a.id}`, { token: owner.token })).status).toBe(404);
  });
});

describe("attachments: what is refused", () => {
  it("a missing or empty file is 400", async () => {
    const { eventId } = await fixture();
    const message = { error: "Choose a file to upload" };
    expect(await upload(eventId, owner.token, null)).toMatchObject({ status: 400, json: message });
    expect(await upload(eventId, owner.token, "just text")).toMatchObject({ status: 400, json: message });
    expect(await upload(eventId, owner.token, new Blob([], { type: "image/png" }))).toMatchObject({ status: 400, json: message });
    const notMultipart = await call("POST", `/api/events/${eventId}/attachments`, { token: owner.token, body: { file: "x" } });
    expect(notMultipart).toMatchObject({ status: 400, json: message });
  });

  it("over 10 MB is 413, by Content-Length before reading and by the file's size", async () => {
    const { eventId } = await fixture();
    const big = new Uint8Array(10 * MB + 1);
    big.set(PNG.subarray(0, 8));
    expect(await upload(eventId, owner.token, new Blob([big], { type: "image/png" }))).toMatchObject({
      status: 413,
      json: { error: "File is too large (10 MB max)" },
    });
    // Exactly 10 MB of file fits, envelope included (the body limit allows for it).
    const exact = big.subarray(0, 10 * MB);
    const ok = await upload(eventId, owner.token, new Blob([exact], { type: "image/png" }), "exact.png");
    expect(ok.status, ok.text).toBe(201);
    const claimed = await fetchRaw(`/api/events/${eventId}/attachments`, owner.token, {
      method: "POST",
      headers: { "Content-Type": "multipart/form-data; boundary=x", "Content-Length": String(50 * MB) },
      body: "--x--",
    });
    expect(claimed.status).toBe(413);
    // Other routes keep the API's 1 MB limit.
    const patch = await call("PATCH", `/api/events/${eventId}`, {
      token: owner.token,
      rawBody: JSON.stringify({ content: "x".repeat(1_100_000) }),
    });
    expect(patch).toMatchObject({ status: 413, json: { error: "Request body is too large" } });
  });

  it("unsupported types are 415: SVG, executables (also renamed), a declared type that disagrees, fake PDFs", async () => {
    const { eventId } = await fixture();
    const refused = { status: 415, json: { error: "This file type is not supported" } };
    const svg = new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], { type: "image/svg+xml" });
    expect(await upload(eventId, owner.token, svg, "logo.svg")).toMatchObject(refused);
    expect(await upload(eventId, owner.token, new Blob([EXE], { type: "application/x-msdownload" }), "setup.exe")).toMatchObject(refused);
    expect(await upload(eventId, owner.token, new Blob([EXE], { type: "image/png" }), "holiday.png")).toMatchObject(refused);
    expect(await upload(eventId, owner.token, new Blob([EXE], { type: "text/plain" }), "readme.txt")).toMatchObject(refused);
    expect(await upload(eventId, owner.token, new Blob([EXE], { type: DOCX }), "story.docx")).toMatchObject(refused);
    expect(await upload(eventId, owner.token, new Blob(["hello"], { type: "application/pdf" }), "fake.pdf")).toMatchObject(refused);
    expect(await upload(eventId, owner.token, new Blob([PNG], { type: "text/html" }), "map.png")).toMatchObject(refused);
    expect(await upload(eventId, owner.token, new Blob([PNG], { type: "image/png" }), "no-extension")).toMatchObject(refused);
    // Accepted: Markdown declared loosely, and an undeclared type that the extension and bytes agree on.
    expect((await upload(eventId, owner.token, new Blob(["# Notes"], { type: "text/x-markdown" }), "notes.md")).json).toMatchObject({
      contentType: "text/markdown",
    });
    expect((await upload(eventId, owner.token, new Blob([PNG]), "MAP.PNG")).json).toMatchObject({ contentType: "image/png" });
    expect((await upload(eventId, owner.token, new Blob([PDF]), "../../etc/plan.pdf")).json).toMatchObject({ filename: "plan.pdf" });
  });

  it("bidirectional overrides and marks are stripped from the name (no 'invoice\u202Efdp.txt' shown as 'invoicetxt.pdf')", async () => {
    const { eventId } = await fixture();
    const named = async (name: string) => (await upload(eventId, owner.token, new Blob(["notes"], { type: "text/plain" }), name)).json;
    expect(await named("invoice\u202Efdp.txt")).toMatchObject({ filename: "invoicefdp.txt" });
    expect(await named("\u2066a\u2067b\u2068c\u2069\u202Ad\u202Be\u202Cf\u202Dg\u200Eh\u200Fi\u061Cj.txt")).toMatchObject({
      filename: "abcdefghij.txt",
    });
    expect(await named("Café — notes.txt")).toMatchObject({ filename: "Café — notes.txt" });
  });

  it("storage per owner: Free 25 MB, Premium 5 GB (403 naming the limit); a collaborator's upload counts for the owner", async () => {
    const freeOwner = await registerUser({ name: "Frida" });
    const tl = await createTimeline(freeOwner.token);
    await shareWith(tl.id, freeOwner.user.id, collaborator.user.id, "collaborator");
    const event = await createEvent(freeOwner.token, tl.id);
    // Usage near the limit, as rows (no 25 MB of uploads).
    await env.DB.prepare(
      "INSERT INTO files (event_id, timeline_id, owner_id, filename, content_type, size, r2_key) VALUES (?, ?, ?, 'big.pdf', 'application/pdf', ?, ?)",
    )
      .bind(event.id, tl.id, freeOwner.user.id, 25 * MB - 10, `test/${crypto.randomUUID()}`)
      .run();
    const free = { status: 403, json: { error: "Storage limit reached (25 MB on the Free plan)" } };
    expect(await upload(event.id, collaborator.token, png())).toMatchObject(free);
    expect(await upload(event.id, freeOwner.token, png())).toMatchObject(free);
    // Nothing was left behind in the bucket.
    const listed = await env.FILES.list({ prefix: `t/${tl.id}/` });
    expect(listed.objects).toHaveLength(0);

    await makePremium(freeOwner.user.id);
    expect((await upload(event.id, collaborator.token, png())).status).toBe(201);
    await env.DB.prepare("UPDATE files SET size = ? WHERE filename = 'big.pdf' AND owner_id = ?")
      .bind(5 * 1024 * MB - 10, freeOwner.user.id)
      .run();
    expect(await upload(event.id, freeOwner.token, png())).toMatchObject({
      status: 403,
      json: { error: "Storage limit reached (5 GB on the Premium plan)" },
    });
  });
});

describe("attachments: cascades and export", () => {
  it("an event purged from Trash takes its rows and objects; other events keep theirs", async () => {
    const { timelineId, eventId } = await fixture();
    const other = await createEvent(owner.token, timelineId, { title: "Other" });
    const a = (await upload(eventId, owner.token, png())).json;
    const b = (await upload(other.id, owner.token, png())).json;
    const [keyA, keyB] = [(await keyOf(a.id))!, (await keyOf(b.id))!];
    expect((await call("DELETE", `/api/events/${eventId}`, { token: owner.token })).status).toBe(200);
    // In Trash for 30 days: everything stays until the purge.
    expect(await env.FILES.head(keyA)).not.toBeNull();
    await purgeTrash(createDb(env.DB), { files: env.FILES }, Date.now() + 31 * 24 * 3600_000);
    expect(await keyOf(a.id)).toBeNull();
    expect(await env.FILES.head(keyA)).toBeNull();
    expect(await env.FILES.head(keyB)).not.toBeNull();
  });

  it("a timeline purged from Trash takes every row and object", async () => {
    const { timelineId, eventId } = await fixture();
    const other = await createEvent(owner.token, timelineId, { title: "Other" });
    const ids = [(await upload(eventId, owner.token, png())).json.id, (await upload(other.id, collaborator.token, png())).json.id];
    const keys = await Promise.all(ids.map(async (id) => (await keyOf(id))!));
    expect((await call("DELETE", `/api/timelines/${timelineId}`, { token: owner.token })).status).toBe(200);
    await purgeTrash(createDb(env.DB), { files: env.FILES }, Date.now() + 31 * 24 * 3600_000);
    for (const [i, id] of ids.entries()) {
      expect(await keyOf(id)).toBeNull();
      expect(await env.FILES.head(keys[i])).toBeNull();
    }
  });

  it("the JSON export lists each event's attachments' metadata; a PATCH answer keeps them", async () => {
    const { timelineId, eventId } = await fixture();
    await upload(eventId, owner.token, png(), "map.png");
    const res = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token: viewer.token });
    expect(res.json.events[0].attachments).toEqual([{ filename: "map.png", contentType: "image/png", size: PNG.length }]);
    const patch = await call("PATCH", `/api/events/${eventId}`, { token: owner.token, body: { position: 0 } });
    expect(patch.json.attachments).toEqual([expect.objectContaining({ filename: "map.png" })]);
  });
});

describe("attachments: the room", () => {
  it("an upload and a delete each reach the others once (sync + notification naming the event)", async () => {
    const { timelineId, eventId } = await fixture();
    const o = await connect(timelineId, owner.token);
    const c = await connect(timelineId, collaborator.token);
    await o.waitFor((m) => m.type === "presence" && m.presence.users.length === 2, "both present");
    o.clear();
    const up = await upload(eventId, collaborator.token, png());
    await o.waitFor((m) => m.type === "sync", "sync after upload");
    const n = await o.waitFor((m) => m.type === "notification", "notification after upload");
    expect(n.notification.message).toContain('"The map"');
    await sleep(200);
    expect(o.messages.filter((m) => m.type === "sync")).toHaveLength(1);
    o.clear();
    expect((await call("DELETE", `/api/attachments/${up.json.id}`, { token: collaborator.token })).status).toBe(200);
    await o.waitFor((m) => m.type === "sync", "sync after delete");
    await sleep(200);
    expect(o.messages.filter((m) => m.type === "sync")).toHaveLength(1);
    o.ws.close();
    c.ws.close();
  });
});
