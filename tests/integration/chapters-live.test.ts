import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ServerMessageSchema } from "../../durable-objects/protocol";
import { openDoc, setupSharedScene, waitUntil } from "./doc-helpers";
import { call } from "./helpers";
import { connect, sleep } from "./room-helpers";

describe("chapters live", () => {
  it("a chapter write tells the room with a 'chapters' sync the protocol schema accepts", async () => {
    const { owner, timeline, collab } = await setupSharedScene();
    const watcher = await connect(timeline.id, collab.token);
    await sleep(50);
    watcher.clear();
    const added = await call("POST", `/api/timelines/${timeline.id}/chapters`, { token: owner.token, body: { title: "One" } });
    expect(added.status).toBe(201);
    const sync = await watcher.waitFor((m) => m.type === "sync", "sync");
    expect(sync).toEqual({ type: "sync", scope: "chapters" });
    expect(ServerMessageSchema.safeParse(sync).success).toBe(true);
    const note = await watcher.waitFor((m) => m.type === "notification", "notification");
    expect(note.notification.message).toBe('Olive Owner added the chapter "One"');
    watcher.clear();
    await call("PATCH", `/api/chapters/${added.json.id}`, { token: owner.token, body: { title: "Opening" } });
    expect(await watcher.waitFor((m) => m.type === "sync", "rename sync")).toEqual({ type: "sync", scope: "chapters" });
    watcher.clear();
    await call("DELETE", `/api/chapters/${added.json.id}`, { token: owner.token });
    expect(await watcher.waitFor((m) => m.type === "sync", "delete sync")).toEqual({ type: "sync", scope: "chapters" });
    watcher.ws.close();
  });

  it("a co-writing save keeps the scene's word count", async () => {
    const { owner, timeline, event } = await setupSharedScene("One two three.");
    expect(event.wordCount).toBe(3);
    const doc = await openDoc(timeline.id, event.id, owner.token);
    doc.type(" 東京 four", 0);
    await waitUntil(
      async () => {
        const row = await env.DB.prepare("SELECT content, word_count FROM events WHERE id = ?")
          .bind(event.id)
          .first<{ content: string; word_count: number }>();
        return row?.content.includes("four") ? row : null;
      },
      "the doc's save",
      8000,
    );
    const row = await env.DB.prepare("SELECT word_count FROM events WHERE id = ?").bind(event.id).first();
    expect(row).toEqual({ word_count: 6 });
    doc.close();
  });
});
