import { dehydrate, hydrate, onlineManager, QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import {
  applyChange,
  type ChapterChange,
  chaptersKey,
  sendChapterChange,
  setChapterDefaults,
} from "../../app/features/chapters/chapter-queries";
import type { ChapterView } from "../../app/features/chapters/chapters-api";
import { registerChangeSession } from "../../app/features/timeline/change-sessions";
import type { ApiClient } from "../../app/lib/client";

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
  const answer = (status: number, body: unknown) => Promise.resolve(new Response(JSON.stringify(body), { status }));
  const chapters = new Map<number, ChapterView>();
  const api = {
    api: {
      timelines: {
        ":id": {
          chapters: {
            $get: () => answer(200, [...chapters.values()]),
            $post: ({ json }: { json: { title: string } }) => {
              sent.push(`create ${json.title}`);
              const made = chapter(++nextId, json.title, chapters.size);
              chapters.set(made.id, made);
              return answer(201, made);
            },
          },
        },
      },
      chapters: {
        ":id": {
          $patch: ({ param, json }: { param: { id: string }; json: Partial<ChapterView> }) => {
            sent.push(`patch ${param.id} ${JSON.stringify(json)}`);
            const held = chapters.get(Number(param.id));
            if (!held) return answer(404, { error: "Chapter not found" });
            Object.assign(held, json);
            return answer(200, held);
          },
          $delete: ({ param }: { param: { id: string } }) => {
            sent.push(`delete ${param.id}`);
            return chapters.delete(Number(param.id)) ? answer(200, { success: true }) : answer(404, { error: "Chapter not found" });
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
});
