import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith } from "./helpers";

// Taking a book out of a series: the book keeps copies of the entries it uses, the series keeps its own.

async function entity(token: string, timelineId: number, body: Record<string, unknown>) {
  const res = await call("POST", `/api/timelines/${timelineId}/entities`, { token, body: { kind: "character", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json as { id: number; name: string };
}

const codex = async (token: string, timelineId: number) => {
  const res = await call("GET", `/api/timelines/${timelineId}/entities`, { token });
  expect(res.status, res.text).toBe(200);
  return res.json as { id: number; name: string; description: string; born: string | null }[];
};

async function scene(token: string, timelineId: number, eventId: number) {
  const res = await call("GET", `/api/timelines/${timelineId}/events`, { token });
  const list = (Array.isArray(res.json) ? res.json : res.json.events) as { id: number; entityIds: number[]; povEntityId: number | null }[];
  const found = list.find((e) => e.id === eventId);
  if (!found) throw new Error(`no scene ${eventId}`);
  return found;
}

/** Three books: Mara made in book 2 and used by books 2 and 3, Kit made in book 1 and used by none. */
async function saga() {
  const owner = await registerUser({ name: "Rhea Remove" });
  await makePremium(owner.user.id);
  const books = [];
  for (const title of ["One", "Two", "Three"]) books.push(await createTimeline(owner.token, { title }));
  const [one, two, three] = books;
  const res = await call("POST", "/api/series", { token: owner.token, body: { title: "Saga", timelineIds: books.map((b) => b.id) } });
  expect(res.status, res.text).toBe(201);
  const seriesId = res.json.id as number;
  const kit = await entity(owner.token, one.id, { name: "Kit" });
  const mara = await entity(owner.token, two.id, { name: "Mara", description: "A pilot.", born: "3 March 2001" });
  const inTwo = await createEvent(owner.token, two.id, { title: "Flight", entityIds: [mara.id], povEntityId: mara.id });
  const inThree = await createEvent(owner.token, three.id, { title: "Landing", entityIds: [mara.id] });
  return { owner, one, two, three, seriesId, kit, mara, inTwo, inThree };
}

describe("DELETE /api/series/{id}/books/{timelineId}", () => {
  it("takes a book out with copies of the entries it uses; the other books and the series keep theirs", async () => {
    const { owner, one, two, three, seriesId, kit, mara, inTwo, inThree } = await saga();
    const res = await call("DELETE", `/api/series/${seriesId}/books/${two.id}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      id: seriesId,
      title: "Saga",
      timelines: [
        { id: one.id, title: "One", position: 1, wordCount: 0 },
        { id: three.id, title: "Three", position: 2, wordCount: expect.any(Number) },
      ],
    });

    // The leaving book: its own Mara (a copy with everything), linked and POV in its scene; no Kit.
    const own = await codex(owner.token, two.id);
    expect(own.map((e) => e.name)).toEqual(["Mara"]);
    expect(own[0]).toMatchObject({ description: "A pilot.", born: "2001-03-03" });
    expect(own[0].id).not.toBe(mara.id);
    expect(await scene(owner.token, two.id, inTwo.id)).toMatchObject({ entityIds: [own[0].id], povEntityId: own[0].id });

    // The series keeps Mara (made in the leaving book) for book 3, and Kit.
    expect((await codex(owner.token, three.id)).map((e) => [e.id, e.name])).toEqual([
      [kit.id, "Kit"],
      [mara.id, "Mara"],
    ]);
    expect((await scene(owner.token, three.id, inThree.id)).entityIds).toEqual([mara.id]);
    // Editing one no longer changes the other.
    expect((await call("PATCH", `/api/entities/${mara.id}`, { token: owner.token, body: { description: "Changed." } })).status).toBe(200);
    expect((await codex(owner.token, two.id))[0].description).toBe("A pilot.");
    // The copy is the book's own: a series entry cannot be linked from it any more.
    const linked = await call("PATCH", `/api/events/${inTwo.id}`, { token: owner.token, body: { entityIds: [kit.id] } });
    expect(linked.status).toBe(400);

    // The book left no header behind; it can join again (its Mara merges back by name).
    const book = await call("GET", `/api/timelines/${two.id}`, { token: owner.token });
    expect(JSON.stringify(book.json)).not.toContain('"Saga"');
    const back = await call("POST", `/api/series/${seriesId}/books`, { token: owner.token, body: { timelineId: two.id } });
    expect(back.status, back.text).toBe(200);
    expect((await codex(owner.token, two.id)).map((e) => e.name)).toEqual(["Kit", "Mara"]);
  });

  it("the last book takes the codex with it", async () => {
    const owner = await registerUser();
    await makePremium(owner.user.id);
    const only = await createTimeline(owner.token, { title: "Alone" });
    const created = await call("POST", "/api/series", { token: owner.token, body: { title: "Short", timelineIds: [only.id] } });
    const seriesId = created.json.id as number;
    const ada = await entity(owner.token, only.id, { name: "Ada" });
    const res = await call("DELETE", `/api/series/${seriesId}/books/${only.id}`, { token: owner.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json.timelines).toEqual([]);
    expect((await codex(owner.token, only.id)).map((e) => [e.id, e.name])).toEqual([[ada.id, "Ada"]]);
  });

  it("refuses everyone but the owner, a book not in the series and forged ids, changing nothing", async () => {
    const { owner, two, three, seriesId, mara } = await saga();
    const collaborator = await registerUser();
    await shareWith(two.id, owner.user.id, collaborator.user.id, "collaborator");
    const stranger = await registerUser();
    const path = `/api/series/${seriesId}/books/${two.id}`;
    expect((await call("DELETE", path, { token: collaborator.token })).status).toBe(403);
    expect((await call("DELETE", path, { token: stranger.token })).status).toBe(404);
    expect((await call("DELETE", path)).status).toBe(401);
    const outside = await createTimeline(owner.token, { title: "Outside" });
    const notIn = await call("DELETE", `/api/series/${seriesId}/books/${outside.id}`, { token: owner.token });
    expect(notIn.status).toBe(400);
    expect(notIn.json.error).toBe("That timeline is not in this series");
    for (const bad of [`/api/series/x/books/${two.id}`, `/api/series/${seriesId}/books/0`, `/api/series/${seriesId}/books/1e3`])
      expect((await call("DELETE", bad, { token: owner.token })).status).toBe(404);
    const after = await call("GET", `/api/series/${seriesId}`, { token: owner.token });
    expect(after.json.timelines.map((b: { id: number }) => b.id)).toContain(two.id);
    expect((await codex(owner.token, three.id)).map((e) => e.id)).toContain(mara.id);
  });
});
