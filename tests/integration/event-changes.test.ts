import { dehydrate, hydrate, onlineManager, QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it } from "vitest";
import {
  applyEventChange,
  type EventChange,
  queueEventChange,
  queueEventCreate,
  registerEventSession,
  setEventDefaults,
} from "../../app/features/timeline/event-changes";
import { newTempId, rememberRealId } from "../../app/features/offline/outbox";
import type { LocalChange } from "../../app/features/timeline/timeline-store";
import type { ApiClient } from "../../app/lib/client";
import type { EventView } from "../../worker/services/events";
import { fakeSceneWrites, plainAnswer } from "./fake-scene-writes";

// The scenes' changes in the outbox (issue 46): what the screen shows while they wait, and their order once sent
// (queued offline, kept as dehydrated state, restored into a new client, sent with the server's id and the create's
// Idempotency-Key).

const TIMELINE = 11;
const scene = (id: number, title: string, position: number) =>
  ({ id, timelineId: TIMELINE, title, content: "", position, chapterId: null, plotlineIds: [], entityIds: [] }) as unknown as EventView;

function fakeApi() {
  const sent: string[] = [];
  const keys: string[] = [];
  let nextId = 70;
  const scenes = new Map<number, EventView>();
  const api = {
    api: {
      timelines: {
        ":id": {
          events: {
            $post: ({ json }: { json: { title: string; content: string } }, options?: { headers?: Record<string, string> }) => {
              sent.push(`create ${json.title}`);
              keys.push(options?.headers?.["Idempotency-Key"] ?? "");
              const made = { ...scene(++nextId, json.title, scenes.size), content: json.content };
              scenes.set(made.id, made);
              return plainAnswer(201, made);
            },
          },
        },
      },
      events: fakeSceneWrites(scenes, sent),
    },
  };
  return { client: api as unknown as ApiClient, sent, keys, scenes };
}

const newClient = () => {
  const client = new QueryClient({ defaultOptions: { mutations: { scope: { id: "outbox" } } } });
  setEventDefaults(client);
  return client;
};

afterEach(() => onlineManager.setOnline(true));

describe("scene changes in the outbox", () => {
  it("show at once on the server's list: a new scene renamed and moved up, another deleted", () => {
    const base = { timelineId: TIMELINE };
    const list = [scene(1, "Boarding", 0), scene(2, "Dining car", 1)];
    const changes: EventChange[] = [
      {
        ...base,
        kind: "event.create",
        tempId: -9,
        key: "k-12345678",
        title: "Border",
        content: "Passports.",
        at: "2026-01-01T00:00:00.000Z",
      },
      { ...base, kind: "event.update", eventId: -9, fields: { title: "Frontier" } },
      { ...base, kind: "event.move", eventId: -9, to: 1 },
      { ...base, kind: "event.delete", eventId: 2, title: "Dining car" },
    ];
    const shown = changes.reduce(applyEventChange, list);
    expect(shown.map((e) => [e.id, e.title, e.position])).toEqual([
      [1, "Boarding", 0],
      [-9, "Frontier", 1],
    ]);
    expect(shown[1].content).toBe("Passports.");
  });

  it("queued offline, restored after a reload, are sent in order with the server's id and the create's key", async () => {
    const fake = fakeApi();
    fake.scenes.set(5, scene(5, "Dining car", 0));
    const landed: LocalChange[] = [];
    const refreshed: number[] = [];
    registerEventSession(TIMELINE, { client: fake.client, refresh: () => refreshed.push(1), landed: (c) => landed.push(c) });
    onlineManager.setOnline(false);
    const before = newClient();
    const base = { timelineId: TIMELINE };
    const tempId = queueEventCreate(before, { ...base, title: "Border", content: "Passports." });
    expect(tempId).toBeLessThan(0);
    queueEventChange(before, { ...base, kind: "event.update", eventId: tempId, fields: { title: "Frontier" } });
    queueEventChange(before, { ...base, kind: "event.move", eventId: tempId, to: 0 });
    queueEventChange(before, { ...base, kind: "event.delete", eventId: 5, title: "Dining car" });
    await expect.poll(() => before.getMutationCache().findAll({ status: "pending" }).length).toBe(4);
    expect(fake.sent).toEqual([]);

    const kept = JSON.parse(JSON.stringify(dehydrate(before)));
    expect(kept.mutations).toHaveLength(4);
    const key = kept.mutations[0].state.variables.key;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const after = newClient();
    hydrate(after, kept);
    onlineManager.setOnline(true);
    await after.resumePausedMutations();
    await expect.poll(() => after.getMutationCache().findAll({ status: "pending" }).length).toBe(0);
    expect(fake.sent).toEqual(["create Border", 'patch 71 {"title":"Frontier"}', 'patch 71 {"position":0}', "delete 5"]);
    expect(fake.keys).toEqual([key]);
    expect([...fake.scenes.values()].map((e) => e.title)).toEqual(["Frontier"]);
    expect(landed.map((c) => c.kind)).toEqual(["create", "event", "event", "move", "delete"]);
    expect(refreshed.length).toBeGreaterThan(0);
  });

  it("a move across the plotline grid, queued offline and restored, shows at once and is sent as one PATCH with the server's ids", async () => {
    const fake = fakeApi();
    fake.scenes.set(5, scene(5, "Storm", 0));
    registerEventSession(TIMELINE, { client: fake.client, refresh: () => undefined, landed: () => undefined });
    onlineManager.setOnline(false);
    const before = newClient();
    // Onto a plotline made offline too (a temporary id of its own: the device's id map outlives a test), in chapter 3,
    // off plotline 8.
    const plotline = newTempId();
    const move: EventChange = { timelineId: TIMELINE, kind: "event.move", eventId: 5, chapterId: 3, plotlineIds: [plotline] };
    const shown = applyEventChange([{ ...scene(5, "Storm", 0), plotlineIds: [8] }], move);
    expect(shown.map((e) => [e.chapterId, e.plotlineIds, e.position])).toEqual([[3, [plotline], 0]]);
    queueEventChange(before, move);
    await expect.poll(() => before.getMutationCache().findAll({ status: "pending" }).length).toBe(1);
    expect(fake.sent).toEqual([]);

    const kept = JSON.parse(JSON.stringify(dehydrate(before)));
    const after = newClient();
    hydrate(after, kept);
    // The plotline's create landed first: the server gave it 44.
    rememberRealId(plotline, 44);
    onlineManager.setOnline(true);
    await after.resumePausedMutations();
    await expect.poll(() => after.getMutationCache().findAll({ status: "pending" }).length).toBe(0);
    expect(fake.sent).toEqual(['patch 5 {"chapterId":3,"plotlineIds":[44]}']);
  });
});
