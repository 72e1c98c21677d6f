import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, importBook } from "./helpers";

// Codex progressions travel in the JSON and Markdown exports and come back with an import (DESIGN.md §12).

async function story() {
  const owner = await registerUser();
  const timeline = await createTimeline(owner.token, { title: "The Salt Keep" });
  const gate = await createEvent(owner.token, timeline.id, { title: "The Gate", content: "Rain." });
  const duel = await createEvent(owner.token, timeline.id, { title: "The Duel", content: "Steel." });
  const mara = await call("POST", `/api/timelines/${timeline.id}/entities`, {
    token: owner.token,
    body: { kind: "character", name: "Mara", description: "A knight." },
  });
  const tobin = await call("POST", `/api/timelines/${timeline.id}/entities`, {
    token: owner.token,
    body: { kind: "character", name: "Tobin" },
  });
  for (const [entity, event, text] of [
    [mara.json.id, duel.id, "Loses her sword hand."],
    [mara.json.id, gate.id, "Swears an oath."],
    [tobin.json.id, duel.id, "Takes up her sword."],
  ] as const) {
    const added = await call("POST", `/api/entities/${entity}/progressions`, { token: owner.token, body: { eventId: event, text } });
    expect(added.status, added.text).toBe(201);
  }
  return { owner, timeline };
}

/** The imported timeline's progressions as 'entry @ scene: text', oldest first. */
async function progressionsOf(token: string, timelineId: number) {
  const entities = (await call("GET", `/api/timelines/${timelineId}/entities`, { token })).json as { id: number; name: string }[];
  const events = (await call("GET", `/api/timelines/${timelineId}/events`, { token })).json as any;
  const list: { id: number; title: string }[] = Array.isArray(events) ? events : events.events;
  const title = new Map(list.map((e) => [e.id, e.title]));
  const out: string[] = [];
  for (const entity of entities) {
    const rows = (await call("GET", `/api/entities/${entity.id}/progressions`, { token })).json as any[];
    for (const p of rows) out.push(`${entity.name} @ ${title.get(p.eventId)}: ${p.text}`);
  }
  return out.sort();
}

const expected = ["Mara @ The Duel: Loses her sword hand.", "Mara @ The Gate: Swears an oath.", "Tobin @ The Duel: Takes up her sword."];

describe("progressions in export and import", () => {
  it("the JSON export lists each entry's progressions by event number, and an import brings them back", async () => {
    const { owner, timeline } = await story();
    const file = await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token });
    expect(file.status).toBe(200);
    const doc = JSON.parse(file.text);
    expect(doc.entities[0].progressions).toEqual([
      { event: 1, text: "Loses her sword hand." },
      { event: 0, text: "Swears an oath." },
    ]);
    const imported = await importBook(owner.token, file.text, "application/json");
    expect(imported.status, imported.text).toBe(201);
    expect(await progressionsOf(owner.token, imported.json.id)).toEqual(expected);
  });

  it("the Markdown outline writes 'From \"{scene}\" on:' lines under the entry and reads them back", async () => {
    const { owner, timeline } = await story();
    const file = await call("GET", `/api/timelines/${timeline.id}/export?format=md`, { token: owner.token });
    expect(file.status).toBe(200);
    expect(file.text).toContain('- From "The Duel" on: Loses her sword hand.');
    const imported = await importBook(owner.token, file.text, "text/markdown");
    expect(imported.status, imported.text).toBe(201);
    expect(await progressionsOf(owner.token, imported.json.id)).toEqual(expected);
  });

  it("a file whose progression names no event of the file is refused with a clear message", async () => {
    const { owner, timeline } = await story();
    const doc = JSON.parse((await call("GET", `/api/timelines/${timeline.id}/export?format=json`, { token: owner.token })).text);
    for (const [progressions, message] of [
      [[{ event: 7, text: "x" }], "Codex entry 1, progression 1: event must be the number of one of the file's events (counting from 0)"],
      [[{ event: 0, text: " " }], "Codex entry 1, progression 1: text is required"],
      [[{ event: 0, text: "x".repeat(2001) }], "Codex entry 1, progression 1: text must be at most 2,000 characters"],
      ["soon", "Codex entry 1: progressions must be a list"],
    ] as const) {
      doc.entities[0].progressions = progressions;
      const res = await importBook(owner.token, JSON.stringify(doc), "application/json");
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toBe(message);
    }
    const md = (await call("GET", `/api/timelines/${timeline.id}/export?format=md`, { token: owner.token })).text;
    const res = await importBook(owner.token, md.replace('From "The Duel" on: Loses', 'From "The Storm" on: Loses'), "text/markdown");
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(/"The Storm" is not a scene of this outline/);
  });
});
