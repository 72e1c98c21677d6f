import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, importBook } from "./helpers";

// Codex relationships travel in the JSON and Markdown exports and come back with an import; an import into an
// existing timeline carries progressions and relationships too, matching entries by name (DESIGN.md §12).

async function story() {
  const owner = await registerUser();
  const timeline = await createTimeline(owner.token, { title: "The Salt Keep" });
  const gate = await createEvent(owner.token, timeline.id, { title: "The Gate", content: "Rain." });
  const fall = await createEvent(owner.token, timeline.id, { title: "The Fall", content: "Stone." });
  const entry = async (name: string) =>
    (await call("POST", `/api/timelines/${timeline.id}/entities`, { token: owner.token, body: { kind: "character", name } })).json;
  const mara = await entry("Mara");
  const ilan = await entry('Ilan "the Kid"');
  const keep = await entry("Vorn");
  for (const body of [
    { fromId: mara.id, toId: ilan.id, label: "sister of" },
    { fromId: ilan.id, toId: keep.id, label: "sworn to → always", sinceEventId: fall.id },
  ]) {
    const res = await call("POST", `/api/timelines/${timeline.id}/relationships`, { token: owner.token, body });
    expect(res.status, res.text).toBe(201);
  }
  const progression = await call("POST", `/api/entities/${mara.id}/progressions`, {
    token: owner.token,
    body: { eventId: gate.id, text: "Swears an oath." },
  });
  expect(progression.status, progression.text).toBe(201);
  return { owner, timeline };
}

/** A timeline's relationships as 'from — label — to (since scene)', sorted. */
async function relationshipsOf(token: string, timelineId: number) {
  const entities = (await call("GET", `/api/timelines/${timelineId}/entities`, { token })).json as { id: number; name: string }[];
  const events = (await call("GET", `/api/timelines/${timelineId}/events`, { token })).json as any;
  const list: { id: number; title: string }[] = Array.isArray(events) ? events : events.events;
  const name = new Map(entities.map((e) => [e.id, e.name]));
  const title = new Map(list.map((e) => [e.id, e.title]));
  const res = await call("GET", `/api/timelines/${timelineId}/relationships`, { token });
  expect(res.status, res.text).toBe(200);
  return (res.json as any[])
    .map((r) => `${name.get(r.fromId)} — ${r.label} — ${name.get(r.toId)}${r.sinceEventId ? ` (${title.get(r.sinceEventId)})` : ""}`)
    .sort();
}

const expected = ['Ilan "the Kid" — sworn to → always — Vorn (The Fall)', 'Mara — sister of — Ilan "the Kid"'];

const importJson = (token: string, body: unknown, path = "/api/timelines/import") =>
  call("POST", path, {
    token,
    rawBody: typeof body === "string" ? body : JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });

describe("relationships in export and import", () => {
  it("the JSON export lists relationships by entry name and scene number, and an import brings them back", async () => {
    const { owner, timeline } = await story();
    const file = await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token });
    expect(file.status).toBe(200);
    expect(JSON.parse(file.text).relationships).toEqual([
      { from: "Mara", to: 'Ilan "the Kid"', label: "sister of" },
      { from: 'Ilan "the Kid"', to: "Vorn", label: "sworn to → always", since: 1 },
    ]);
    const imported = await importJson(owner.token, file.text);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json.skipped).toBeUndefined();
    expect(await relationshipsOf(owner.token, imported.json.id)).toEqual(expected);
  });

  it("the Markdown outline writes '- Relationship:' lines under the entry and reads them back", async () => {
    const { owner, timeline } = await story();
    const file = await call("GET", `/api/timelines/${timeline.id}/export?format=md`, { token: owner.token });
    expect(file.status).toBe(200);
    expect(file.text).toContain('- Relationship: "sister of" → "Ilan \\"the Kid\\""');
    expect(file.text).toContain('- Relationship: "sworn to → always" → "Vorn" from "The Fall" on');
    const imported = await importBook(owner.token, file.text, "text/markdown");
    expect(imported.status, imported.text).toBe(201);
    expect(await relationshipsOf(owner.token, imported.json.id)).toEqual(expected);

    const unknownScene = await importBook(owner.token, file.text.replace('from "The Fall" on', 'from "The Storm" on'), "text/markdown");
    expect(unknownScene.status).toBe(400);
    expect(unknownScene.json.error).toMatch(/^Line \d+: "The Storm" is not a scene of this outline$/);
  });

  it("a relationship naming an entry the file does not have is skipped with a sentence, the rest imported", async () => {
    const { owner, timeline } = await story();
    const doc = JSON.parse((await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token })).text);
    doc.relationships.push({ from: "Mara", to: "Nobody", label: "rival of" });
    const dry = await importJson(owner.token, doc, "/api/timelines/import?dryRun=1");
    expect(dry.status, dry.text).toBe(200);
    expect(dry.json.summary.skipped).toEqual(['Relationship "Mara — rival of — Nobody" not imported: "Nobody" is not in the codex']);
    const imported = await importJson(owner.token, doc);
    expect(imported.status, imported.text).toBe(201);
    expect(imported.json.skipped).toEqual(['Relationship "Mara — rival of — Nobody" not imported: "Nobody" is not in the codex']);
    expect(await relationshipsOf(owner.token, imported.json.id)).toEqual(expected);
  });

  it("a malformed relationships field is refused with a message naming it, and nothing is created", async () => {
    const { owner, timeline } = await story();
    const doc = JSON.parse((await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token })).text);
    const before = (await call("GET", "/api/timelines", { token: owner.token })).text;
    for (const [relationships, message] of [
      ["Mara loves Ilan", "File: relationships must be a list"],
      [[42], "Relationship 1: must be an object"],
      [[{ from: "Mara", to: 7, label: "x" }], "Relationship 1: to must be the name of a codex entry"],
      [[{ from: "Mara", to: "mara", label: "x" }], "Relationship 1: a relationship joins two different entries"],
      [[{ from: "Mara", to: "Vorn", label: " " }], "Relationship 1: label is required"],
      [[{ from: "Mara", to: "Vorn", label: "x".repeat(101) }], "Relationship 1: label must be at most 100 characters"],
      [
        [{ from: "Mara", to: "Vorn", label: "x", since: 9 }],
        "Relationship 1: since must be the number of one of the file's events (counting from 0)",
      ],
      [Array(2001).fill({ from: "Mara", to: "Vorn", label: "x" }), "File: at most 2,000 relationships can be imported at once"],
    ] as const) {
      const res = await importJson(owner.token, { ...doc, relationships });
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toBe(message);
    }
    expect((await call("GET", "/api/timelines", { token: owner.token })).text).toBe(before);
  });

  it("an import into an existing timeline carries progressions and relationships, matching entries by name", async () => {
    const { owner, timeline } = await story();
    const target = await createTimeline(owner.token, { title: "Book Two" });
    await createEvent(owner.token, target.id, { title: "Prologue", content: "Dust." });
    const vorn = (
      await call("POST", `/api/timelines/${target.id}/entities`, { token: owner.token, body: { kind: "character", name: "VORN" } })
    ).json;
    const file = {
      format: "storyweave-timeline",
      version: 1,
      timeline: { title: "Part", description: null },
      entities: [
        { kind: "character", name: "Vorn", progressions: [{ event: 1, text: "Loses the keep." }] },
        { kind: "character", name: "Sela", progressions: [{ event: 0, text: "Arrives." }] },
      ],
      events: [
        { title: "The Siege", content: "", entities: ["Vorn"] },
        { title: "The Flight", content: "", entities: ["Sela"] },
      ],
      relationships: [
        { from: "Sela", to: "vorn", label: "daughter of", since: 1 },
        { from: "Sela", to: "Ghost", label: "haunted by" },
      ],
    };
    const res = await importJson(owner.token, file, `/api/timelines/${target.id}/import`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.added).toEqual({ events: 2, entities: 1 });
    expect(res.json.skipped).toEqual(['Relationship "Sela — haunted by — Ghost" not imported: "Ghost" is not in the codex']);
    expect(await relationshipsOf(owner.token, target.id)).toEqual(["Sela — daughter of — VORN (The Flight)"]);
    const entities = (await call("GET", `/api/timelines/${target.id}/entities`, { token: owner.token })).json as any[];
    expect(entities.map((e) => e.name).sort()).toEqual(["Sela", "VORN"]);
    const events = (await call("GET", `/api/timelines/${target.id}/events`, { token: owner.token })).json as any;
    const title = new Map((Array.isArray(events) ? events : events.events).map((e: any) => [e.id, e.title]));
    const progressions = async (id: number) =>
      ((await call("GET", `/api/entities/${id}/progressions`, { token: owner.token })).json as any[]).map(
        (p) => `${title.get(p.eventId)}: ${p.text}`,
      );
    expect(await progressions(vorn.id)).toEqual(["The Flight: Loses the keep."]);
    const sela = entities.find((e) => e.name === "Sela");
    expect(await progressions(sela.id)).toEqual(["The Siege: Arrives."]);

    // The book's own export appended to it: its relationships come along, joined to the entries it already has.
    const book = await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token });
    const again = await importJson(owner.token, book.text, `/api/timelines/${target.id}/import`);
    expect(again.status, again.text).toBe(200);
    expect(await relationshipsOf(owner.token, target.id)).toEqual([
      'Ilan "the Kid" — sworn to → always — VORN (The Fall)',
      'Mara — sister of — Ilan "the Kid"',
      "Sela — daughter of — VORN (The Flight)",
    ]);
  });
});
