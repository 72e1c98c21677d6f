import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import ambiguousCsv from "../fixtures/spreadsheets/ambiguous-day-month.csv?inline";
import windows1252Csv from "../fixtures/spreadsheets/excel-windows-1252.csv?inline";
import odsSheet from "../fixtures/spreadsheets/scenes.ods?inline";
import xlsxSheet from "../fixtures/spreadsheets/scenes.xlsx?inline";
import semicolonCsv from "../fixtures/spreadsheets/semicolon-dots.csv?inline";
import tabTsv from "../fixtures/spreadsheets/tab-separated.tsv?inline";
import utf16Csv from "../fixtures/spreadsheets/utf-16.csv?inline";
import { zipSync } from "fflate";
import { call, createEvent, createTimeline, registerUser, shareWith, bytesOf, type User, premiumWriter } from "./helpers";
import { connect } from "./room-helpers";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const ODS = "application/vnd.oasis.opendocument.spreadsheet";
const DATE_HELP = "use YYYY-MM-DD or the spreadsheet's date format";

/** A fixture's bytes exactly as checked in (imported as a base64 data URL). */

let owner: User;
beforeAll(async () => {
  owner = await premiumWriter("Olive");
});

const importBytes = (token: string, body: Uint8Array | string, contentType: string, query = "", path = "/api/timelines/import") =>
  call("POST", `${path}${query}`, {
    token,
    rawBody: typeof body === "string" ? body : new Uint8Array(body),
    headers: { "Content-Type": contentType },
  });

async function exported(timelineId: number, token = owner.token) {
  const res = await call("GET", `/api/timelines/${timelineId}/export?format=json`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

const countRows = async () =>
  env.DB.prepare(
    "SELECT (SELECT count(*) FROM timelines) AS timelines, (SELECT count(*) FROM events) AS events, (SELECT count(*) FROM entities) AS entities",
  ).first();

/** The three scenes every fixture holds (see tests/fixtures/spreadsheets/README.md). */
const SCENES = [
  {
    title: "Arrivée à Zürich",
    content: "Élodie steps off the night train; the café is closed.",
    storyStart: "2024-03-15",
    // Linked entries in codex order (the export lists the codex by name).
    entities: ["Jürgen", "Élodie"],
    pov: "Élodie",
  },
  {
    title: "Señora Núñez’s “offer”",
    content: "Œuvre, façade — and a price in €.",
    storyStart: "2024-04-01T14:30",
    entities: ["Jürgen", "Señora Núñez"],
    pov: null,
  },
  {
    title: "Crème brûlée",
    content: "Dessert, with a line break:\nthen silence.",
    storyStart: "2024-12-25",
    entities: ["Élodie"],
    pov: null,
  },
];

describe("spreadsheets as Excel and LibreOffice write them", () => {
  it.each([
    ["Windows-1252 CSV (Excel's 'CSV (Comma delimited)')", windows1252Csv, "text/csv"],
    ["semicolon CSV with 15.03.2024 dates", semicolonCsv, "text/csv"],
    ["tab-separated .tsv with 2024/03/15 dates", tabTsv, "text/tab-separated-values"],
    [".xlsx (date serials)", xlsxSheet, XLSX],
    [".ods", odsSheet, ODS],
  ])("%s: accents exact, dates right, codex merged by name", async (_, file, contentType) => {
    const res = await importBytes(owner.token, bytesOf(file), contentType, "?title=Z%C3%BCrich%20nights");
    expect(res.status, res.text).toBe(201);
    expect(res.json.title).toBe("Zürich nights");
    const doc = await exported(res.json.id);
    expect(
      doc.events.map(({ title, content, storyStart, entities, pov }: Record<string, unknown>) => ({
        title,
        content,
        storyStart,
        entities,
        pov,
      })),
    ).toEqual(SCENES);
    expect(doc.entities.map((e: { name: string }) => e.name)).toEqual(["Jürgen", "Señora Núñez", "Élodie"]);
    expect(JSON.stringify(doc)).not.toContain("\uFFFD");
  });

  it("ambiguous day/month: month first unless the writer chooses day first", async () => {
    const monthFirst = await importBytes(owner.token, bytesOf(ambiguousCsv), "text/csv");
    expect(monthFirst.status, monthFirst.text).toBe(201);
    expect((await exported(monthFirst.json.id)).events.map((e: { storyStart: string }) => e.storyStart)).toEqual([
      "2024-04-03",
      "2024-06-05T09:15",
    ]);
    const dayFirst = await importBytes(owner.token, bytesOf(ambiguousCsv), "text/csv", "?dateOrder=dmy");
    expect(dayFirst.status, dayFirst.text).toBe(201);
    expect((await exported(dayFirst.json.id)).events.map((e: { storyStart: string }) => e.storyStart)).toEqual([
      "2024-03-04",
      "2024-05-06T09:15",
    ]);
    const bad = await importBytes(owner.token, bytesOf(ambiguousCsv), "text/csv", "?dateOrder=ymd");
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: "Date order must be mdy or dmy" });
  });

  it("?title= names the new timeline for every format (the dialog's Title field); too long → 400", async () => {
    const md = await importBytes(owner.token, "# In the file\n## E\ntext", "text/markdown", "?title=From%20the%20dialog");
    expect(md.status, md.text).toBe(201);
    expect(md.json.title).toBe("From the dialog");
    const long = await importBytes(owner.token, "title\nA\n", "text/csv", `?title=${"t".repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.json).toEqual({ error: "Title must be at most 200 characters" });
  });

  it("a file's unambiguous dates decide the order of its ambiguous ones", async () => {
    const res = await importBytes(owner.token, "title,date\nA,15/03/2024\nB,04/05/2024 9:05 PM\n", "text/csv");
    expect(res.status, res.text).toBe(201);
    expect((await exported(res.json.id)).events.map((e: { storyStart: string }) => e.storyStart)).toEqual([
      "2024-03-15",
      "2024-05-04T21:05",
    ]);
  });

  it.each([
    [
      "a UTF-16 file",
      bytesOf(utf16Csv),
      "text/csv",
      'This file is UTF-16 text, not UTF-8 or Windows-1252: save it as "CSV UTF-8" and import again',
    ],
    [
      "a Shift-JIS file",
      // 東京の夜,物語 in Shift-JIS
      Uint8Array.from([
        0x74, 0x69, 0x74, 0x6c, 0x65, 0x0a, 0x93, 0x8c, 0x8b, 0x9e, 0x82, 0xcc, 0x96, 0xe9, 0x2c, 0x95, 0xa8, 0x8c, 0xea, 0x0a,
      ]),
      "text/csv",
      'This file is not UTF-8 or Windows-1252 text: save it as "CSV UTF-8" and import again',
    ],
    [
      "a date that is none",
      "title,content,date\nA,x,3/15/2024\nB,y,4/1/2024\nC,z,32/13/2024\n",
      "text/csv",
      `Line 4: date "32/13/2024" is not a date: ${DATE_HELP}`,
    ],
    [
      "an impossible ISO date",
      "title,date\nA,2024-02-30\n",
      "text/csv",
      `Line 2: date "2024-02-30" has a day that month does not have: ${DATE_HELP}`,
    ],
    [
      "garbage sent as .xlsx",
      new TextEncoder().encode("title,content\nthis is not a spreadsheet\n"),
      XLSX,
      "This file is not a readable .xlsx or .ods spreadsheet: open it in your spreadsheet program, save it again and import again",
    ],
    [
      "a broken .xlsx (a ZIP without a workbook)",
      zipSync({ "hello.txt": new TextEncoder().encode("hi") }),
      XLSX,
      "This file is not a readable .xlsx or .ods spreadsheet: open it in your spreadsheet program, save it again and import again",
    ],
    [
      "an .xlsx that unpacks to more than 32 MB",
      zipSync({ "xl/worksheets/sheet1.xml": new Uint8Array(33 * 1024 * 1024) }, { level: 9 }),
      XLSX,
      "This spreadsheet is too large to import (32 MB unpacked at most): keep the scenes in one sheet of at most 5,000 rows",
    ],
  ])("%s → 400 with a message that says what to do, nothing written", async (_, body, contentType, error) => {
    const before = await countRows();
    const res = await importBytes(owner.token, body, contentType);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toEqual({ error });
    expect(await countRows()).toEqual(before);
  });
});

describe("import into an existing timeline", () => {
  it("appends the events after the last one, merges the codex by name, tells the room", async () => {
    const collaborator = await registerUser({ name: "Cora" });
    const tl = await createTimeline(owner.token, { title: "Night trains" });
    await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
    const elodie = await call("POST", `/api/timelines/${tl.id}/entities`, { token: owner.token, body: { kind: "place", name: "ÉLODIE" } });
    expect(elodie.status, elodie.text).toBe(201);
    await createEvent(owner.token, tl.id, { title: "Already here", entityIds: [elodie.json.id] });
    const room = await connect(tl.id, owner.token);

    const res = await importBytes(collaborator.token, bytesOf(windows1252Csv), "text/csv", "", `/api/timelines/${tl.id}/import`);
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      timeline: expect.objectContaining({ id: tl.id, title: "Night trains" }),
      added: { events: 3, entities: 2 },
    });
    await room.waitFor((m) => m.type === "notification" && m.notification.message === 'Cora added "3 events from a file"', "room told");

    const doc = await exported(tl.id);
    expect(doc.timeline.title).toBe("Night trains");
    expect(doc.events.map((e: { title: string }) => e.title)).toEqual(["Already here", ...SCENES.map((s) => s.title)]);
    // "Élodie" and "élodie" in the file are the timeline's "ÉLODIE" (a place, as it was); the others are new.
    expect(doc.entities.map((e: { name: string; kind: string }) => [e.name, e.kind])).toEqual([
      ["Jürgen", "character"],
      ["Señora Núñez", "character"],
      ["ÉLODIE", "place"],
    ]);
    expect(doc.events[1]).toMatchObject({ entities: ["Jürgen", "ÉLODIE"], pov: "ÉLODIE", storyStart: "2024-03-15" });
    expect(doc.events[3]).toMatchObject({ entities: ["ÉLODIE"] });
    const positions = await env.DB.prepare("SELECT position FROM events WHERE timeline_id = ? ORDER BY position").bind(tl.id).all();
    expect(positions.results.map((r) => r.position)).toEqual([0, 1, 2, 3]);
    const versions = await env.DB.prepare("SELECT count(*) AS n FROM event_versions WHERE timeline_id = ? AND author_id = ?")
      .bind(tl.id, collaborator.user.id)
      .first();
    expect(versions).toEqual({ n: 3 });

    // The StoryWeave JSON appends too: twice the same file, the codex does not grow.
    const again = await importBytes(owner.token, JSON.stringify(doc), "application/json", "", `/api/timelines/${tl.id}/import`);
    expect(again.status, again.text).toBe(200);
    expect(again.json.added).toEqual({ events: 4, entities: 0 });
    expect((await exported(tl.id)).events).toHaveLength(8);
  });

  it("a viewer gets 403, another account and a missing timeline 404, a bad file 400: nothing written", async () => {
    const [viewer, stranger] = await Promise.all([registerUser(), registerUser()]);
    const tl = await createTimeline(owner.token);
    await shareWith(tl.id, owner.user.id, viewer.user.id, "viewer");
    const before = await countRows();
    const path = `/api/timelines/${tl.id}/import`;
    const asViewer = await importBytes(viewer.token, "title\nA\n", "text/csv", "", path);
    expect(asViewer.status).toBe(403);
    expect(asViewer.json).toEqual({ error: "You have view-only access to this timeline" });
    const asStranger = await importBytes(stranger.token, "title\nA\n", "text/csv", "", path);
    expect(asStranger.status).toBe(404);
    expect(asStranger.json).toEqual({ error: "Timeline not found" });
    const missing = await importBytes(owner.token, "title\nA\n", "text/csv", "", "/api/timelines/999999999/import");
    expect(missing.status).toBe(404);
    const bad = await importBytes(owner.token, "title,date\nA,31/31/2024\n", "text/csv", "", path);
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: `Line 2: date "31/31/2024" is not a date: ${DATE_HELP}` });
    expect(await countRows()).toEqual(before);
  });

  it("a collaborator share link may append with ?share=; a viewer link may not", async () => {
    const guest = await registerUser();
    const tl = await createTimeline(owner.token);
    const code = `import-${tl.id}-${Math.random().toString(36).slice(2, 8)}`;
    await env.DB.prepare("UPDATE timelines SET share_code = ?, share_role = 'collaborator' WHERE id = ?").bind(code, tl.id).run();
    const path = `/api/timelines/${tl.id}/import`;
    const res = await importBytes(guest.token, "title\nFrom the link\n", "text/csv", `?share=${code}`, path);
    expect(res.status, res.text).toBe(200);
    expect(res.json.added).toEqual({ events: 1, entities: 0 });
    await env.DB.prepare("UPDATE timelines SET share_role = 'viewer' WHERE id = ?").bind(tl.id).run();
    const asViewer = await importBytes(guest.token, "title\nAgain\n", "text/csv", `?share=${code}`, path);
    expect(asViewer.status).toBe(403);
  });

  it("appending does not count as a new timeline on the free plan", async () => {
    const writer = await registerUser();
    const timelines = [];
    for (let i = 0; i < 3; i++) timelines.push(await createTimeline(writer.token));
    const res = await importBytes(writer.token, "title\nA\n", "text/csv", "", `/api/timelines/${timelines[0].id}/import`);
    expect(res.status, res.text).toBe(200);
    const created = await importBytes(writer.token, "title\nA\n", "text/csv");
    expect(created.status).toBe(403);
  });
});
