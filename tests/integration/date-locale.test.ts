import { describe, expect, it } from "vitest";
import { PRESETS } from "../../db/domain/calendar";
import { call, createEvent, createTimeline, registerUser } from "./helpers";

const displays = (list: Array<{ storyStartDisplay: string | null }>) => list.map((e) => e.storyStartDisplay);

describe("story dates in the writer's locale", () => {
  it("lists the events' dates in the words of Accept-Language; English without it, or in English", async () => {
    const owner = await registerUser();
    const { id } = await createTimeline(owner.token, { title: "Locale" });
    await createEvent(owner.token, id, { title: "Call", storyStart: "13 Oct 2031 9am" });
    await createEvent(owner.token, id, { title: "Month", storyStart: "March 2032" });
    const path = `/api/timelines/${id}/events`;

    const plain = await call("GET", path, { token: owner.token });
    expect(displays(plain.json)).toEqual(["13 October 2031, 9:00", "March 2032"]);
    const english = await call("GET", path, { token: owner.token, headers: { "Accept-Language": "en-US,en;q=0.9" } });
    expect(displays(english.json)).toEqual(["13 October 2031, 9:00", "March 2032"]);
    expect(english.headers.get("ETag")).toBe(plain.headers.get("ETag"));

    // The same revision, asked for in German: not the English list kept for it.
    const german = await call("GET", path, { token: owner.token, headers: { "Accept-Language": "de-DE,de;q=0.9,en;q=0.5" } });
    expect(german.status).toBe(200);
    expect(displays(german.json)).toEqual(["13. Oktober 2031 um 09:00", "März 2032"]);
    expect(german.json[0].storyStart).toBe("2031-10-13T09:00");
    expect(german.headers.get("ETag")).not.toBe(plain.headers.get("ETag"));
    expect(german.headers.get("Vary")).toContain("Accept-Language");
    const again = await call("GET", path, {
      token: owner.token,
      headers: { "Accept-Language": "de-DE", "If-None-Match": plain.headers.get("ETag") ?? "" },
    });
    expect(again.status).toBe(200);

    // A tag Intl does not know falls back to English.
    const unknown = await call("GET", path, { token: owner.token, headers: { "Accept-Language": "zz-!!" } });
    expect(displays(unknown.json)).toEqual(["13 October 2031, 9:00", "March 2032"]);
  });

  it("reads the locale's month names on a write and answers in that locale; refusals keep their wording", async () => {
    const owner = await registerUser();
    const { id } = await createTimeline(owner.token, { title: "Locale writes" });
    const fr = { "Accept-Language": "fr-FR" };
    const made = await call("POST", `/api/timelines/${id}/events`, {
      token: owner.token,
      headers: fr,
      body: { title: "Lettre", content: "Elle écrit.", storyStart: "13 octobre 2031" },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ storyStart: "2031-10-13", storyStartDisplay: "13 octobre 2031" });

    const de = { "Accept-Language": "de" };
    const patched = await call("PATCH", `/api/events/${made.json.id}`, {
      token: owner.token,
      headers: de,
      body: { storyEnd: "14. Okt. 2031 um 21:30" },
    });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({
      storyEnd: "2031-10-14T21:30",
      storyStartDisplay: "13. Oktober 2031",
      storyEndDisplay: "14. Oktober 2031 um 21:30",
    });

    const english = await call("PATCH", `/api/events/${made.json.id}`, { token: owner.token, body: { storyStart: "12 octobre 2031" } });
    expect(english).toMatchObject({ status: 400, json: { error: "Story start must be a date like 13 October 2031, 9:00" } });
    const bad = await call("PATCH", `/api/events/${made.json.id}`, {
      token: owner.token,
      headers: fr,
      body: { storyStart: "12 brumaire 2031" },
    });
    expect(bad).toMatchObject({ status: 400, json: { error: "Story start must be a date like 13 October 2031, 9:00" } });
    const kept = await call("GET", `/api/timelines/${id}/events`, { token: owner.token });
    expect(kept.json[0]).toMatchObject({
      storyStart: "2031-10-13",
      storyStartDisplay: "13 October 2031",
      storyEndDisplay: "14 October 2031, 21:30",
    });
  });

  it("previews a calendar change in the writer's words", async () => {
    const owner = await registerUser();
    const { id } = await createTimeline(owner.token, { title: "Locale calendar" });
    await createEvent(owner.token, id, { title: "The letter arrives", storyStart: "2031-10-13T09:00" });
    const preview = await call("PUT", `/api/timelines/${id}/calendar`, {
      token: owner.token,
      headers: { "Accept-Language": "de-DE" },
      body: PRESETS.thirteen.calendar,
    });
    expect(preview.status).toBe(409);
    expect(preview.json.changes).toEqual([
      expect.objectContaining({
        title: "The letter arrives",
        before: "13. Oktober 2031 um 09:00",
        after: expect.stringMatching(/ AR, 09:00$/),
      }),
    ]);
  });

  it("reads a character's Born and Died in the locale's month names too", async () => {
    const owner = await registerUser();
    const { id } = await createTimeline(owner.token, { title: "Locale codex" });
    const fr = { "Accept-Language": "fr" };
    const body = { kind: "character", name: "Mara", born: "3 mars 2001", died: "12 décembre 2080" };
    const made = await call("POST", `/api/timelines/${id}/entities`, { token: owner.token, headers: fr, body });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ born: "2001-03-03", died: "2080-12-12" });
    const english = await call("PATCH", `/api/entities/${made.json.id}`, { token: owner.token, body: { born: "4 mars 2001" } });
    expect(english).toMatchObject({ status: 400, json: { error: "Born must be a date like 13 October 2031, 9:00" } });
  });

  it("answers a scene restored from Trash in the writer's words", async () => {
    const owner = await registerUser();
    const { id } = await createTimeline(owner.token, { title: "Locale trash" });
    const scene = await createEvent(owner.token, id, { title: "Gone", storyStart: "13 Oct 2031" });
    expect((await call("DELETE", `/api/events/${scene.id}`, { token: owner.token })).status).toBe(200);
    const restored = await call("POST", `/api/trash/event/${scene.id}/restore`, {
      token: owner.token,
      headers: { "Accept-Language": "es" },
    });
    expect(restored.status).toBe(200);
    expect(restored.json).toMatchObject({ id: scene.id, storyStartDisplay: "13 de octubre de 2031" });
  });
});
