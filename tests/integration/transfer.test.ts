import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import {
  call,
  createEvent,
  createTimeline,
  registerUser,
  shareWith,
  fetchRaw,
  type User,
  type Role,
  ROLES,
  matrixWriters,
  shareAsMatrix,
} from "./helpers";

const FREE_LIMIT = "Free plan is limited to 3 timelines. Upgrade to Premium for unlimited timelines.";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

let owner: User, collaborator: User, viewer: User, linkGuest: User;

let tokenOf: (role: Role) => string | undefined;

beforeAll(async () => {
  ({ owner, collaborator, viewer, linkGuest, tokenOf } = await matrixWriters());
});

async function importFile(token: string | undefined, body: string, contentType: string, query = "") {
  return call("POST", `/api/timelines/import${query}`, { token, rawBody: body, headers: { "Content-Type": contentType } });
}

/**
 * A timeline with everything an export carries: description, a codex of three kinds (aliases, colors),
 * events with links, a POV, story ranges and labels, in a dragged story order that differs from
 * creation order; shared with a collaborator, a viewer and a viewer-only link.
 */
async function storyFixture(title = "The Long Night: Part 2") {
  const tl = await createTimeline(owner.token, { title, description: "A siege in three voices." });
  const shareCode = await shareAsMatrix(tl.id, { owner, collaborator, viewer });
  const entity = async (body: Record<string, unknown>) => {
    const res = await call("POST", `/api/timelines/${tl.id}/entities`, { token: owner.token, body });
    expect(res.status, res.text).toBe(201);
    return res.json.id as number;
  };
  const mara = await entity({ kind: "character", name: "Mara", aliases: ["The Captain"], description: "Harbor pilot", color: "#123abc" });
  const harbor = await entity({ kind: "place", name: "Harbor" });
  const lantern = await entity({ kind: "thing", name: "Lantern", description: "Never goes out" });
  await createEvent(owner.token, tl.id, {
    title: "Arrival",
    content: "The ships come in.\n\n**Bold** and *quiet*.\n# Not a heading",
    entityIds: [mara, harbor],
    povEntityId: mara,
    storyStart: "-450-03-15",
    storyEnd: "-450-03-16",
    storyLabel: "Day 3, dusk",
  });
  await createEvent(owner.token, tl.id, {
    title: "Siege",
    content: "Fire, and then silence.",
    entityIds: [lantern],
    storyStart: "10231-01-02T06:30",
  });
  const third = await createEvent(owner.token, tl.id, { title: "Prologue", content: "Before it all.", storyLabel: "Long before" });
  // Story order is the dragged order: the prologue goes first.
  const moved = await call("PATCH", `/api/events/${third.id}`, { token: owner.token, body: { position: 0 } });
  expect(moved.status, moved.text).toBe(200);
  return { timelineId: tl.id as number, shareCode };
}

// ---------------------------------------------------------------------------------------------
// A minimal zip reader (central directory + DecompressionStream), independent of the library that
// wrote the file: the .docx must be a real zip that any reader can open.

async function inflateRaw(bytes: Uint8Array) {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function unzip(buffer: ArrayBuffer): Promise<Map<string, string>> {
  const view = new DataView(buffer);
  const bytes = new Uint8Array(buffer);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error("not a zip: no end of central directory");
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  const files = new Map<string, string>();
  for (let n = 0; n < count; n++) {
    if (view.getUint32(p, true) !== 0x02014b50) throw new Error("bad central directory entry");
    const method = view.getUint16(p + 10, true);
    const compressedSize = view.getUint32(p + 20, true);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const localOffset = view.getUint32(p + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength));
    if (view.getUint32(localOffset, true) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const dataStart = localOffset + 30 + view.getUint16(localOffset + 26, true) + view.getUint16(localOffset + 28, true);
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    const content = method === 0 ? data : method === 8 ? await inflateRaw(data) : null;
    if (!content) throw new Error(`unsupported compression ${method} for ${name}`);
    files.set(name, new TextDecoder().decode(content));
    p += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}

/** The visible text of word/document.xml, paragraph by paragraph. */
const paragraphsOf = (xml: string) =>
  [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)]
    .map((p) => [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(""))
    .filter(Boolean)
    .map((t) =>
      t
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'"),
    );

// ---------------------------------------------------------------------------------------------

describe("export: format × role", () => {
  const statuses: Record<Role, number> = { owner: 200, collaborator: 200, viewer: 200, shareViewer: 200, stranger: 404, anonymous: 401 };
  const formats = [
    { format: "json", contentType: "application/json", ext: "json" },
    { format: "md", contentType: "text/markdown; charset=utf-8", ext: "md" },
    { format: "docx", contentType: DOCX, ext: "docx" },
  ];
  let fx: Awaited<ReturnType<typeof storyFixture>>;
  beforeAll(async () => {
    fx = await storyFixture();
  });

  const cases = formats.flatMap((f) => ROLES.map((role) => ({ ...f, role, status: statuses[role] })));
  it.each(cases)("$format as $role → $status", async ({ format, contentType, ext, role, status }) => {
    const share = role === "shareViewer" ? `&share=${fx.shareCode}` : "";
    const res = await fetchRaw(`/api/timelines/${fx.timelineId}/export?format=${format}${share}`, tokenOf(role));
    expect(res.status).toBe(status);
    if (status !== 200) {
      expect(await res.json()).toEqual({ error: status === 401 ? "Not authenticated" : "Timeline not found" });
      expect(res.headers.get("Content-Disposition")).toBeNull();
      return;
    }
    expect(res.headers.get("Content-Type")).toBe(contentType);
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="the-long-night-part-2.${ext}"`);
    expect(res.headers.get("Cache-Control")).toBe("private, no-store");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const bytes = await res.arrayBuffer();
    expect(bytes.byteLength).toBeGreaterThan(100);
  });

  it("a share link of another timeline, or a wrong code, is no access (404)", async () => {
    const res = await fetchRaw(`/api/timelines/${fx.timelineId}/export?format=json&share=not-the-code`, linkGuest.token);
    expect(res.status).toBe(404);
  });

  it("an unknown format is a 400, a missing one means JSON, a missing timeline a 404", async () => {
    const bad = await call("GET", `/api/timelines/${fx.timelineId}/export?format=rtf`, { token: owner.token });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: "Format must be json, md, docx, epub, pdf or typst" });
    const plain = await fetchRaw(`/api/timelines/${fx.timelineId}/export`, owner.token);
    expect(plain.headers.get("Content-Type")).toBe("application/json");
    const missing = await call("GET", "/api/timelines/99999999/export?format=md", { token: owner.token });
    expect(missing.status).toBe(404);
    expect((await call("GET", "/api/timelines/abc/export", { token: owner.token })).status).toBe(404);
  });

  it("JSON: the whole timeline in story order, with codex, links, POV, story time and attachment metadata", async () => {
    const res = await call("GET", `/api/timelines/${fx.timelineId}/export?format=json`, { token: viewer.token });
    expect(res.json).toEqual({
      format: "storyweave-timeline",
      version: 1,
      timeline: { title: "The Long Night: Part 2", description: "A siege in three voices." },
      entities: [
        { kind: "place", name: "Harbor", aliases: [], description: "", color: "#10b981" },
        { kind: "thing", name: "Lantern", aliases: [], description: "Never goes out", color: "#f59e0b" },
        { kind: "character", name: "Mara", aliases: ["The Captain"], description: "Harbor pilot", color: "#123abc" },
      ],
      events: [
        {
          title: "Prologue",
          content: "Before it all.",
          storyStart: null,
          storyEnd: null,
          storyLabel: "Long before",
          entities: [],
          pov: null,
          attachments: [],
        },
        {
          title: "Arrival",
          content: "The ships come in.\n\n**Bold** and *quiet*.\n# Not a heading",
          storyStart: "-450-03-15",
          storyEnd: "-450-03-16",
          storyLabel: "Day 3, dusk",
          entities: ["Harbor", "Mara"],
          pov: "Mara",
          attachments: [],
        },
        {
          title: "Siege",
          content: "Fire, and then silence.",
          storyStart: "10231-01-02T06:30",
          storyEnd: null,
          storyLabel: null,
          entities: ["Lantern"],
          pov: null,
          attachments: [],
        },
      ],
    });
  });

  it("Markdown: title, description, one section per event with story time and codex lines, then the whole codex", async () => {
    const res = await call("GET", `/api/timelines/${fx.timelineId}/export?format=md`, { token: collaborator.token });
    expect(res.text).toBe(
      [
        "# The Long Night: Part 2",
        "",
        "A siege in three voices.",
        "",
        "## Prologue",
        "",
        "*Story time: Long before*",
        "",
        "Before it all.",
        "",
        "## Arrival",
        "",
        "*Story time: -450-03-15 – -450-03-16 · Day 3, dusk*",
        "*Characters: Mara (POV)*",
        "*Places: Harbor*",
        "",
        "The ships come in.",
        "",
        "**Bold** and *quiet*.",
        "### Not a heading",
        "",
        "## Siege",
        "",
        "*Story time: 10231-01-02T06:30*",
        "*Things: Lantern*",
        "",
        "Fire, and then silence.",
        "",
        "## Codex",
        "",
        "### Harbor",
        "",
        "- Kind: place",
        "- Color: #10b981",
        "",
        "### Lantern",
        "",
        "- Kind: thing",
        "- Color: #f59e0b",
        "- Description:",
        "  Never goes out",
        "",
        "### Mara",
        "",
        "- Kind: character",
        "- Color: #123abc",
        "- Aliases:",
        "  - The Captain",
        "- Description:",
        "  Harbor pilot",
        "",
      ].join("\n"),
    );
  });

  it("Word: a valid Office document with a title page, a heading per event in story order, story time, codex and text", async () => {
    const res = await fetchRaw(`/api/timelines/${fx.timelineId}/export?format=docx&share=${fx.shareCode}`, linkGuest.token);
    const files = await unzip(await res.arrayBuffer());
    expect([...files.keys()]).toEqual(
      expect.arrayContaining(["[Content_Types].xml", "_rels/.rels", "word/document.xml", "docProps/core.xml"]),
    );
    expect(files.get("[Content_Types].xml")).toContain("application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml");
    expect(files.get("docProps/core.xml")).toContain("<dc:title>The Long Night: Part 2</dc:title>");
    const xml = files.get("word/document.xml")!;
    expect(xml).toMatch(/^<\?xml[^>]*\?>\s*<w:document/);
    const text = paragraphsOf(xml);
    expect(text.slice(0, 4)).toEqual(["The Long Night: Part 2", "A siege in three voices.", "by Olive", "3 scenes"]);
    const headings = [...xml.matchAll(/<w:pStyle w:val="Heading1"\/>[\s\S]*?<w:t[^>]*>([^<]*)<\/w:t>/g)].map((m) => m[1]);
    expect(headings).toEqual(["Prologue", "Arrival", "Siege"]);
    const arrival = text.indexOf("Arrival");
    expect(text.slice(arrival, arrival + 7)).toEqual([
      "Arrival",
      "Story time: 15 March 451 BC – 16 March 451 BC · Day 3, dusk",
      "Characters: Mara (POV)",
      "Places: Harbor",
      "The ships come in.",
      "Bold and quiet.",
      "Not a heading",
    ]);
    // Formatting survives: the bold run is bold, the italic run italic.
    expect(xml).toMatch(/<w:r><w:rPr><w:b\/><w:bCs\/><\/w:rPr><w:t[^>]*>Bold<\/w:t><\/w:r>/);
    expect(xml).toMatch(/<w:r><w:rPr><w:i\/><w:iCs\/><\/w:rPr><w:t[^>]*>quiet<\/w:t><\/w:r>/);
    // The events start on a page of their own (a section break after the title page).
    expect(xml.indexOf("<w:sectPr")).toBeLessThan(xml.indexOf("Prologue"));
  });

  it("an empty timeline exports in every format; an accented or non-Latin title still names the file", async () => {
    const tl = await createTimeline(owner.token, { title: "東京 Café" });
    for (const format of ["json", "md", "docx"]) {
      const res = await fetchRaw(`/api/timelines/${tl.id}/export?format=${format}`, owner.token);
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="cafe.${format}"`);
      if (format === "docx")
        expect(paragraphsOf((await unzip(await res.arrayBuffer())).get("word/document.xml")!)).toContain("No events yet.");
    }
  });

  it("Word export stays linear: four 50,000-character events full of unclosed markers take about as long as plain ones", async () => {
    const timed = async (line: string) => {
      const tl = await createTimeline(owner.token, { title: "Long lines" });
      for (let i = 0; i < 4; i++) await createEvent(owner.token, tl.id, { title: `Part ${i}`, content: line });
      const started = performance.now();
      const res = await fetchRaw(`/api/timelines/${tl.id}/export?format=docx`, owner.token);
      const xml = (await unzip(await res.arrayBuffer())).get("word/document.xml")!;
      return { ms: performance.now() - started, xml };
    };
    // `(_a` opens an italic at every third character that no later `_` closes; `(-a` is the same text without markers.
    const plain = await timed("(-a".repeat(16_666));
    const markers = await timed("(_a".repeat(16_666));
    expect(markers.xml).toContain("(_a(_a(_a");
    expect(markers.xml).not.toContain("<w:i/>");
    expect(markers.ms).toBeLessThan(plain.ms * 3 + 500);
  });
});

// ---------------------------------------------------------------------------------------------

/** Everything of a timeline that an export → import must keep, with the new ids left out. */
async function exported(timelineId: number, token = owner.token) {
  const res = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

async function countRows() {
  const row = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM timelines) AS t, (SELECT count(*) FROM events) AS e, (SELECT count(*) FROM entities) AS n, (SELECT count(*) FROM event_entities) AS l",
  ).first();
  return row;
}

describe("import", () => {
  it("a flood of imports from one account is refused (429) before the body is read; other writers are unaffected", async () => {
    const flooder = await registerUser();
    const timeline = await createTimeline(flooder.token, { title: "Flooded" });
    // Files the parser refuses still cost a read: each counts, into a new timeline or into one that exists.
    const paths = Array.from({ length: 60 }, (_, i) => (i % 2 ? "/api/timelines/import" : `/api/timelines/${timeline.id}/import`));
    for (const path of paths) {
      const res = await call("POST", path, {
        token: flooder.token,
        rawBody: "not a title line",
        headers: { "Content-Type": "text/markdown" },
      });
      expect(res.status).toBe(400);
    }
    for (const path of ["/api/timelines/import", `/api/timelines/${timeline.id}/import`]) {
      const res = await call("POST", path, {
        token: flooder.token,
        rawBody: "# Fine\n## E\n",
        headers: { "Content-Type": "text/markdown" },
      });
      expect(res.status).toBe(429);
      expect(res.json).toMatchObject({ error: expect.stringMatching(/^Too many imports\. Please try again in \d+ minutes?\.$/) });
      expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    }
    const other = await registerUser();
    expect((await importFile(other.token, "# Still fine\n## E\ntext", "text/markdown")).status).toBe(201);
  });

  it("JSON round trip: import of an export exports the same document (titles, contents, order, codex, links, dates)", async () => {
    const fx = await storyFixture("Round trip");
    const original = await exported(fx.timelineId);
    const res = await importFile(viewer.token, JSON.stringify(original), "application/json");
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ title: "Round trip", description: "A siege in three voices.", isOwner: true, accessLevel: "owner" });
    expect(res.json.id).not.toBe(fx.timelineId);
    expect(await exported(res.json.id, viewer.token)).toEqual(original);
    // The copy is the importer's own, with positions 0..n-1, sort keys, and the marker gone.
    const stored = await env.DB.prepare("SELECT user_id, share_code FROM timelines WHERE id = ?").bind(res.json.id).first();
    expect(stored).toEqual({ user_id: viewer.user.id, share_code: null });
    const events = await call("GET", `/api/timelines/${res.json.id}/events?order=chronological`, { token: viewer.token });
    expect(events.json.map((e: { title: string; position: number }) => [e.title, e.position])).toEqual([
      ["Arrival", 1],
      ["Siege", 2],
      ["Prologue", 0],
    ]);
  });

  it("Markdown round trip keeps the whole codex: unlinked entries, a name with a comma, a label-only year", async () => {
    const fx = await storyFixture("Markdown round trip");
    const add = (body: Record<string, unknown>) => call("POST", `/api/timelines/${fx.timelineId}/entities`, { token: owner.token, body });
    const smith = await add({ kind: "character", name: "Smith, John", aliases: ["Johnny"], description: "Two lines.\nOf text." });
    expect(smith.status, smith.text).toBe(201);
    expect((await add({ kind: "place", name: "Nowhere", description: "Never visited", color: "#abcdef" })).status).toBe(201);
    await createEvent(owner.token, fx.timelineId, {
      title: "The year",
      storyLabel: "1999",
      entityIds: [smith.json.id],
      povEntityId: smith.json.id,
    });
    const markdown = (await call("GET", `/api/timelines/${fx.timelineId}/export?format=md`, { token: owner.token })).text;
    const res = await importFile(owner.token, markdown, "text/markdown; charset=utf-8");
    expect(res.status, res.text).toBe(201);
    expect(await exported(res.json.id)).toEqual(await exported(fx.timelineId));
    expect((await call("GET", `/api/timelines/${res.json.id}/export?format=md`, { token: owner.token })).text).toBe(markdown);
  });

  it("Markdown round trip keeps chapter targets", async () => {
    const fx = await storyFixture("Markdown chapter targets");
    const events = (await call("GET", `/api/timelines/${fx.timelineId}/events`, { token: owner.token })).json as { id: number }[];
    const chapter = (body: Record<string, unknown>) =>
      call("POST", `/api/timelines/${fx.timelineId}/chapters`, { token: owner.token, body });
    expect((await chapter({ title: "Opening", targetWords: 5000, eventIds: [events[0].id] })).status).toBe(201);
    expect((await chapter({ title: "Middle", eventIds: [events[1].id] })).status).toBe(201);
    expect((await chapter({ title: "Not yet written", targetWords: 12_500 })).status).toBe(201);
    const markdown = (await call("GET", `/api/timelines/${fx.timelineId}/export?format=md`, { token: owner.token })).text;
    expect(markdown).toContain("\n## Opening\n\n*Target: 5,000 words*\n\n### ");
    expect(markdown).toContain("\n## Not yet written\n\n*Target: 12,500 words*\n");
    const res = await importFile(owner.token, markdown, "text/markdown; charset=utf-8");
    expect(res.status, res.text).toBe(201);
    const targets = async (id: number) =>
      (
        (await call("GET", `/api/timelines/${id}/chapters`, { token: owner.token })).json as { title: string; targetWords: number | null }[]
      ).map((c) => [c.title, c.targetWords]);
    expect(await targets(res.json.id)).toEqual([
      ["Opening", 5000],
      ["Middle", null],
      ["Not yet written", 12_500],
    ]);
    expect((await call("GET", `/api/timelines/${res.json.id}/export?format=md`, { token: owner.token })).text).toBe(markdown);
  });

  it("a big import lands whole: 5,000 events with links, in order", async () => {
    const events = Array.from({ length: 5000 }, (_, i) => ({
      title: `Scene ${i + 1}`,
      content: `Text ${i + 1}`,
      entities: i % 2 ? ["A"] : [],
    }));
    const doc = { format: "storyweave-timeline", version: 1, timeline: { title: "Big" }, entities: [{ name: "A" }], events };
    const res = await importFile(owner.token, JSON.stringify(doc), "application/json");
    expect(res.status, res.text).toBe(201);
    const stats = await env.DB.prepare(
      "SELECT count(*) AS n, min(position) AS lo, max(position) AS hi, count(DISTINCT position) AS d, sum(title = 'Scene ' || (position + 1)) AS ordered FROM events WHERE timeline_id = ?",
    )
      .bind(res.json.id)
      .first();
    expect(stats).toEqual({ n: 5000, lo: 0, hi: 4999, d: 5000, ordered: 5000 });
    const links = await env.DB.prepare(
      "SELECT count(*) AS n FROM event_entities l JOIN events e ON e.id = l.event_id WHERE e.timeline_id = ?",
    )
      .bind(res.json.id)
      .first();
    expect(links).toEqual({ n: 2500 });
  });

  it("Markdown outline → a timeline with description, events, story time and codex", async () => {
    const md =
      "# My Novel\n\nA book.\n\n## Opening\n*Story time: 2024-03 · Spring*\n*Characters: Ada (POV), Ben*\n*Places: Mill*\n\nIt begins.\n\n## Ending\nIt ends.\n";
    const res = await importFile(owner.token, md, "text/markdown; charset=utf-8");
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ title: "My Novel", description: "A book." });
    const doc = await exported(res.json.id);
    expect(doc.entities.map((e: { kind: string; name: string }) => `${e.kind}:${e.name}`)).toEqual([
      "character:Ada",
      "character:Ben",
      "place:Mill",
    ]);
    expect(doc.events).toEqual([
      expect.objectContaining({
        title: "Opening",
        content: "It begins.",
        storyStart: "2024-03",
        storyLabel: "Spring",
        entities: ["Ada", "Ben", "Mill"],
        pov: "Ada",
      }),
      expect.objectContaining({ title: "Ending", content: "It ends.", entities: [] }),
    ]);
    // And the Markdown export reads back as the same outline.
    const again = await importFile(
      owner.token,
      (await call("GET", `/api/timelines/${res.json.id}/export?format=md`, { token: owner.token })).text,
      "text/markdown",
    );
    expect(again.status).toBe(201);
    expect((await exported(again.json.id)).events).toEqual(doc.events);
  });

  it("CSV (quoted commas and line breaks, dates, characters) → a timeline named by ?title=", async () => {
    const csv =
      'title,content,date,characters\r\n"Arrival, at last","Line one\r\nLine ""two""",2024-03-15,"Mara (POV); Jon"\r\nSiege,Days.,Day 3,Jon\r\n';
    const res = await importFile(owner.token, csv, "text/csv", "?title=Plot%20sheet");
    expect(res.status, res.text).toBe(201);
    expect(res.json.title).toBe("Plot sheet");
    const doc = await exported(res.json.id);
    expect(doc.events).toEqual([
      expect.objectContaining({
        title: "Arrival, at last",
        content: 'Line one\nLine "two"',
        storyStart: "2024-03-15",
        entities: ["Jon", "Mara"],
        pov: "Mara",
      }),
      expect.objectContaining({ title: "Siege", content: "Days.", storyStart: null, storyLabel: "Day 3", entities: ["Jon"] }),
    ]);
  });

  it.each([
    [
      "JSON without title",
      "application/json",
      JSON.stringify({ format: "storyweave-timeline", version: 1, timeline: {}, events: [] }),
      "Timeline: title is required",
    ],
    ["broken JSON", "application/json", '{\n  "format": "storyweave-timeline",\n  oops\n}', "Line 3: this is not valid JSON"],
    ["another JSON", "application/json", "[]", 'File: this is not a StoryWeave timeline (format must be "storyweave-timeline")'],
    ["Markdown without '# Title'", "text/markdown", "Notes\n## One", "Line 1: the outline must start with a '# Title' line"],
    ["Markdown event without title", "text/markdown", "# T\n\n## One\ntext\n## \n", "Line 5: title is required"],
    ["Markdown long content", "text/markdown", `# T\n## E\n${"x".repeat(50_001)}`, "Line 2: content must be at most 50,000 characters"],
    [
      "CSV without header",
      "text/csv",
      "Arrival,It begins\n",
      "Line 1: the header row must have a title column (title, content, date, characters)",
    ],
    ["CSV row without title", "text/csv", 'title,content\nA,"multi\nline"\n,orphan\n', "Line 4: title is required"],
    ["CSV unclosed quote", "text/csv", 'title,content\nA,"open\n', "Line 2: a quoted field is not closed"],
    [
      "CSV bad date",
      "text/csv",
      "title,date\nA,2024-02-30\n",
      `Line 2: date "2024-02-30" has a day that month does not have: use YYYY-MM-DD or the spreadsheet's date format`,
    ],
  ])("%s → 400 naming the line, nothing written", async (_, contentType, body, error) => {
    const before = await countRows();
    const res = await importFile(owner.token, body, contentType);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error });
    expect(await countRows()).toEqual(before);
  });

  it("free plan: the import counts like a create (403, same message, nothing written) and shared timelines do not count", async () => {
    const writer = await registerUser();
    const doc = await exported((await storyFixture("Limit")).timelineId);
    await shareWith((await createTimeline(owner.token)).id, owner.user.id, writer.user.id, "collaborator");
    for (let i = 0; i < 2; i++) await createTimeline(writer.token);
    const third = await importFile(writer.token, JSON.stringify(doc), "application/json");
    expect(third.status, third.text).toBe(201);
    const before = await countRows();
    const fourth = await importFile(writer.token, JSON.stringify(doc), "application/json");
    expect(fourth.status).toBe(403);
    expect(fourth.json).toEqual({ error: FREE_LIMIT });
    const csv = await importFile(writer.token, "title\nA\n", "text/csv");
    expect(csv.json).toEqual({ error: FREE_LIMIT });
    expect(await countRows()).toEqual(before);
    expect((await call("POST", "/api/timelines", { token: writer.token, body: { title: "x" } })).json).toEqual({ error: FREE_LIMIT });
  });

  it("three imports at once at two timelines left: exactly two land", async () => {
    const writer = await registerUser();
    await createTimeline(writer.token);
    const results = await Promise.all([1, 2, 3].map((i) => importFile(writer.token, `# Story ${i}\n## E\ntext`, "text/markdown")));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 403]);
    const owned = await env.DB.prepare("SELECT count(*) AS n FROM timelines WHERE user_id = ?").bind(writer.user.id).first();
    expect(owned).toEqual({ n: 3 });
  });

  it("over 1 MB → 413; another file type → 415; anonymous → 401", async () => {
    const big = `# Big\n## E\n${"x".repeat(1_000_001)}`;
    const tooBig = await importFile(owner.token, big, "text/markdown");
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toEqual({ error: "Request body is too large" });
    const png = await importFile(owner.token, "\x89PNG", "image/png");
    expect(png.status).toBe(415);
    expect(png.json).toEqual({
      error: "Choose a StoryWeave JSON (.json), Markdown outline (.md), CSV (.csv, .tsv) or spreadsheet (.xlsx, .ods) file",
    });
    const anonymous = await importFile(undefined, "# T", "text/markdown");
    expect(anonymous.status).toBe(401);
  });

  it("cookie-authenticated imports from another site are refused", async () => {
    const res = await call("POST", "/api/timelines/import", {
      rawBody: "# T",
      headers: { "Content-Type": "text/markdown", Cookie: owner.cookie?.split(";")[0] ?? "", Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
  });
});
