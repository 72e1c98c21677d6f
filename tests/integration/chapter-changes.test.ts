import { dehydrate, hydrate, onlineManager, QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import {
  applyChange,
  applyChanges,
  type ChapterChange,
  chaptersShown,
  chaptersKey,
  sendChapterChange,
  setChapterDefaults,
} from "../../app/features/chapters/chapter-queries";
import type { ChapterView } from "../../app/features/chapters/chapters-api";
import { registerChangeSession } from "../../app/features/timeline/change-sessions";
import type { ApiClient } from "../../app/lib/client";
import { plainAnswer } from "./fake-scene-writes";

// The chapters' changes on the client data layer: what the screen shows while they wait, and the outbox's order
// (queued offline, kept as dehydrated state, restored into a new client, sent in order with the server's ids).

const TIMELINE = 7;
const chapter = (id: number, title: string, position: number): ChapterView => ({
  id,
  timelineId: TIMELINE,
  title,
  position,
  targetWords: null,
  wordCount: 0,
});

/** A typed client's stand-in that records what is sent and answers like the API. */
function fakeApi() {
  const sent: string[] = [];
  let nextId = 40;
  const chapters = new Map<number, ChapterView>();
  const api = {
    api: {
      timelines: {
        ":id": {
          chapters: {
            $get: () => plainAnswer(200, [...chapters.values()]),
            $post: ({ json }: { json: { title: string } }) => {
              sent.push(`create ${json.title}`);
              const made = chapter(++nextId, json.title, chapters.size);
              chapters.set(made.id, made);
              return plainAnswer(201, made);
            },
            // A run of queued creates in one request (`POST /api/timelines/{id}/chapters/batch`), made in order.
            batch: {
              $post: ({ json }: { json: { chapters: { title: string }[] } }) => {
                sent.push(`batch ${json.chapters.map((c) => c.title).join(",")}`);
                const made = json.chapters.map((c) => {
                  const one = chapter(++nextId, c.title, chapters.size);
                  chapters.set(one.id, one);
                  return one;
                });
                return plainAnswer(201, { chapters: made });
              },
            },
          },
        },
      },
      chapters: {
        ":id": {
          $patch: ({ param, json }: { param: { id: string }; json: Partial<ChapterView> }) => {
            sent.push(`patch ${param.id} ${JSON.stringify(json)}`);
            const held = chapters.get(Number(param.id));
            if (!held) return plainAnswer(404, { error: "Chapter not found" });
            Object.assign(held, json);
            return plainAnswer(200, held);
          },
          $delete: ({ param }: { param: { id: string } }) => {
            sent.push(`delete ${param.id}`);
            return chapters.delete(Number(param.id))
              ? plainAnswer(200, { success: true })
              : plainAnswer(404, { error: "Chapter not found" });
          },
        },
      },
    },
  };
  return { client: api as unknown as ApiClient, sent, chapters };
}

const newClient = () => {
  const client = new QueryClient({ defaultOptions: { mutations: { scope: { id: "outbox" } } } });
  setChapterDefaults(client);
  return client;
};

afterEach(() => onlineManager.setOnline(true));

describe("chapter changes", () => {
  it("show at once on the server's list: a new chapter, renamed, moved first; a deletion", () => {
    const base = { timelineId: TIMELINE };
    const list = [chapter(1, "One", 0), chapter(2, "Two", 1)];
    const changes: ChapterChange[] = [
      { ...base, kind: "chapter.create", tempId: -5, title: "Three" },
      { ...base, kind: "chapter.update", chapterId: -5, title: "Prologue" },
      { ...base, kind: "chapter.move", chapterId: -5, position: 0 },
      { ...base, kind: "chapter.delete", chapterId: 2 },
    ];
    const shown = changes.reduce((l, c) => applyChange(l, c), list);
    expect(shown.map((c) => [c.id, c.title, c.position])).toEqual([
      [-5, "Prologue", 0],
      [1, "One", 1],
    ]);
    // The server's chapter replaces the temporary one once it is confirmed.
    const confirmed = applyChange(list, changes[0], chapter(9, "Three", 2));
    expect(confirmed.map((c) => c.id)).toEqual([1, 2, 9]);
  });

  it("queued offline, restored into a new client after a reload, are sent in order with the server's id", async () => {
    const fake = fakeApi();
    registerChangeSession(TIMELINE, { client: fake.client, refresh: () => {} });
    onlineManager.setOnline(false);
    const before = newClient();
    before.setQueryData(chaptersKey(TIMELINE), []);
    const base = { timelineId: TIMELINE };
    expect(await sendChapterChange(before, { ...base, kind: "chapter.create", tempId: -1, title: "Leaving Port" })).toBe(true);
    expect(await sendChapterChange(before, { ...base, kind: "chapter.update", chapterId: -1, title: "The Crossing" })).toBe(true);
    expect(await sendChapterChange(before, { ...base, kind: "chapter.create", tempId: -2, title: "Landfall" })).toBe(true);
    expect(before.getMutationCache().findAll({ status: "pending" })).toHaveLength(3);
    expect(fake.sent).toEqual([]);

    // The page reloads: what was kept (the paused changes) goes into a new client.
    const kept = JSON.parse(JSON.stringify(dehydrate(before)));
    expect(kept.mutations).toHaveLength(3);
    const after = newClient();
    hydrate(after, kept);
    onlineManager.setOnline(true);
    await after.resumePausedMutations();
    await expect.poll(() => after.getMutationCache().findAll({ status: "pending" }).length).toBe(0);
    expect(fake.sent).toEqual(["create Leaving Port", 'patch 41 {"title":"The Crossing"}', "create Landfall"]);
    expect([...fake.chapters.values()].map((c) => c.title)).toEqual(["The Crossing", "Landfall"]);
  });

  it("shown all at once (applyChanges) as applied one by one (applyChange), over any mix of changes", () => {
    // A small deterministic generator: creates, renames, moves and deletes of chapters old and new.
    let seed = 46;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 40; round++) {
      const list = Array.from({ length: random(6) }, (_, i) => chapter(i + 1, `Old ${i + 1}`, i));
      const ids = list.map((c) => c.id);
      const changes: ChapterChange[] = [];
      for (let i = 0; i < 30; i++) {
        const base = { timelineId: TIMELINE };
        const any = () => ids[random(ids.length)] ?? 1;
        const pick = random(10);
        if (pick < 5 || ids.length === 0) {
          const tempId = -(round * 100 + i + 1);
          ids.push(tempId);
          changes.push({ ...base, kind: "chapter.create", tempId, title: `New ${tempId}` });
        } else if (pick < 7) changes.push({ ...base, kind: "chapter.update", chapterId: any(), title: `Renamed ${i}` });
        else if (pick < 9) changes.push({ ...base, kind: "chapter.move", chapterId: any(), position: random(ids.length + 1) });
        else changes.push({ ...base, kind: "chapter.delete", chapterId: any() });
      }
      const oneByOne = changes.reduce((l, c) => applyChange(l, c), list);
      expect(applyChanges(list, changes)).toEqual(oneByOne);
    }
  });

  it("200 queued offline land once each, in the order they were made, the list shown meanwhile", async () => {
    const fake = fakeApi();
    registerChangeSession(TIMELINE, { client: fake.client, refresh: () => {} });
    onlineManager.setOnline(false);
    const client = newClient();
    client.setQueryData(chaptersKey(TIMELINE), []);
    const base = { timelineId: TIMELINE };
    for (let i = 1; i <= 200; i++) {
      await sendChapterChange(client, { ...base, kind: "chapter.create", tempId: -i, title: `Chapter ${i}`, key: `key-${i}` });
    }
    // The last one renamed and moved first, by its temporary id.
    await sendChapterChange(client, { ...base, kind: "chapter.update", chapterId: -200, title: "Prologue" });
    await sendChapterChange(client, { ...base, kind: "chapter.move", chapterId: -200, position: 0 });
    const shown = chaptersShown(client, TIMELINE);
    expect(shown).toHaveLength(200);
    expect(shown.slice(0, 3).map((c) => [c.id, c.title, c.position])).toEqual([
      [-200, "Prologue", 0],
      [-1, "Chapter 1", 1],
      [-2, "Chapter 2", 2],
    ]);
    expect(fake.sent).toEqual([]);

    onlineManager.setOnline(true);
    await client.resumePausedMutations();
    await expect.poll(() => client.getMutationCache().findAll({ status: "pending" }).length, { timeout: 20_000 }).toBe(0);
    // In runs of CREATE_RUN_MAX (20), each one request, in the order they were made; then the rename and the move.
    const runs = Array.from(
      { length: 10 },
      (_, r) => `batch ${Array.from({ length: 20 }, (_, i) => `Chapter ${r * 20 + i + 1}`).join(",")}`,
    );
    expect(fake.sent).toEqual([...runs, 'patch 240 {"title":"Prologue"}', 'patch 240 {"position":0}']);
    expect(fake.chapters.size).toBe(200);
    // What is shown once they all landed: the server's chapters, none twice, none temporary.
    const after = chaptersShown(client, TIMELINE);
    expect(new Set(after.map((c) => c.id)).size).toBe(200);
    expect(after.every((c) => c.id > 0)).toBe(true);
  });
});
