import { WebSocket as NodeWebSocket } from "ws";
import { WebsocketProvider } from "y-websocket";
import * as Y from "yjs";
import { baseURL } from "../../playwright.config";
import type { APIRequestContext } from "@playwright/test";
import { type TestUser, apiAs, createUser, expect, test } from "./fixtures";

// A scene's shared doc speaks plain y-protocols: a stock y-websocket client (what any Yjs app uses) joins it,
// edits it, and stays connected through autosaves, a writer's Save and an API edit.

/** y-websocket's socket, signed in as `user` with their bearer token (what a non-browser client sends). */
const socketAs = (user: TestUser) =>
  class extends NodeWebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { Authorization: `Bearer ${user.token}` } });
    }
  };

/** The scene as the API serves it. */
async function storedScene(request: APIRequestContext, user: TestUser, timelineId: number, eventId: number) {
  const events = await apiAs<Array<{ id: number; title: string; version: number }>>(
    request,
    user,
    "GET",
    `/api/timelines/${timelineId}/events`,
  );
  return events.find((e) => e.id === eventId)!;
}

test.use({ writerOptions: { name: "Olive Owner", premium: false } });

function stockClient(user: TestUser, timelineId: number, eventId: number) {
  const doc = new Y.Doc();
  const closes: unknown[] = [];
  const errors: unknown[] = [];
  const server = `${baseURL.replace(/^http/, "ws")}/ws/${timelineId}/events/${eventId}`;
  const provider = new WebsocketProvider(server, "doc", doc, {
    WebSocketPolyfill: socketAs(user) as unknown as typeof WebSocket,
    disableBc: true,
    maxBackoffTime: 60_000,
  });
  provider.on("connection-close", (event) => closes.push(event?.code ?? "closed"));
  provider.on("connection-error", (event) => errors.push(event));
  const synced = new Promise<void>((resolve) => {
    if (provider.synced) resolve();
    provider.on("sync", (isSynced: boolean) => isSynced && resolve());
  });
  return { doc, provider, closes, errors, synced, title: () => doc.getText("title").toString() };
}

test.describe(() => {
  test.use({ timelineTitle: "Stock clients" });

  test("a stock y-websocket client joins a scene and stays connected through saves", async ({ request, writer: owner, timeline }) => {
    test.setTimeout(60_000);
    const event = await owner.api("POST", `/api/timelines/${timeline.id}/events`, {
      title: "The storm",
      content: "Rain on the harbour.",
    });

    const a = stockClient(owner, timeline.id, event.id);
    const b = stockClient(owner, timeline.id, event.id);
    try {
      await Promise.all([a.synced, b.synced]);
      expect(a.title()).toBe("The storm");
      expect(b.doc.getXmlFragment("content").toString()).toContain("Rain on the harbour.");

      // An edit from one stock client reaches the other, and the server's autosave writes it to the database.
      a.doc.getText("title").insert("The storm".length, " at dusk");
      await expect.poll(() => b.title()).toBe("The storm at dusk");
      await expect
        .poll(async () => (await storedScene(request, owner, timeline.id, event.id)).title, { timeout: 15_000 })
        .toBe("The storm at dusk");
      // The server marks the doc saved through its `meta` map (plain Yjs), never with a frame of its own.
      await expect.poll(() => (a.doc.getMap("meta").get("saved") as { version?: number } | undefined)?.version ?? 0).toBeGreaterThan(1);

      // A writer's Save, asked through the doc as the product's editor does: answered in `meta.reply`.
      a.doc.getMap("meta").set("save", { id: "stock-save-1" });
      await expect.poll(() => (a.doc.getMap("meta").get("reply") as { id?: string } | undefined)?.id).toBe("stock-save-1");

      // An API edit while the clients are here is merged into the doc they hold.
      const current = await storedScene(request, owner, timeline.id, event.id);
      await owner.api("PATCH", `/api/events/${event.id}`, { title: "The storm breaks", baseVersion: current.version });
      await expect.poll(() => b.title()).toBe("The storm breaks");

      expect(a.provider.wsconnected && b.provider.wsconnected).toBe(true);
      expect(a.closes).toEqual([]);
      expect(b.closes).toEqual([]);
      expect(a.errors).toEqual([]);
      expect(b.errors).toEqual([]);
    } finally {
      a.provider.destroy();
      b.provider.destroy();
    }
  });
});

test.describe(() => {
  test.use({ timelineTitle: "Private" });

  test("a stock client without access is refused before any socket opens", async ({ request, writer: owner, timeline }) => {
    const stranger = await createUser(request, { name: "Stan" });
    const event = await owner.api("POST", `/api/timelines/${timeline.id}/events`, { title: "Secret", content: "Only us." });
    const c = stockClient(stranger, timeline.id, event.id);
    try {
      await expect.poll(() => c.closes.length + c.errors.length).toBeGreaterThan(0);
      expect(c.provider.synced).toBe(false);
      expect(c.title()).toBe("");
    } finally {
      c.provider.destroy();
    }
  });
});
