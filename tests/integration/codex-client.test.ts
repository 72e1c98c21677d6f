import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { hc } from "hono/client";
import { expect, it } from "vitest";
import type { Api } from "../../worker/api/index";
import worker from "../../worker/index";
import { ORIGIN, createTimeline, registerUser } from "./helpers";

/** The typed client a screen would use (hc<Api>), against the real Worker: the types compile and the calls work. */
function client(token: string) {
  return hc<Api>(ORIGIN, {
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(input, init);
      request.headers.set("Authorization", `Bearer ${token}`);
      const ctx = createExecutionContext();
      const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    },
  }).api;
}

it("hc<Api> covers the codex and the story fields of events", async () => {
  const owner = await registerUser();
  const tl = await createTimeline(owner.token);
  const api = client(owner.token);
  const id = String(tl.id);

  const made = await api.timelines[":id"].entities.$post({ param: { id }, query: {}, json: { kind: "character", name: "Mara" } });
  expect(made.status).toBe(201);
  const mara = await made.json();
  const kind: "character" | "place" | "thing" = mara.kind;
  expect(kind).toBe("character");

  const ev = await api.timelines[":id"].events.$post({
    param: { id },
    query: {},
    json: { title: "Arrival", content: "She lands.", entityIds: [mara.id], povEntityId: mara.id, storyStart: "-450" },
  });
  const event = await ev.json();
  const ids: number[] = event.entityIds;
  expect(ids).toEqual([mara.id]);

  const patched = await api.entities[":id"].$patch({ param: { id: String(mara.id) }, query: {}, json: { aliases: ["Captain"] } });
  expect((await patched.json()).aliases).toEqual(["Captain"]);

  const moved = await api.events[":id"].$patch({
    param: { id: String(event.id) },
    query: {},
    json: { storyStart: "10231-01-02T06:30", storyLabel: "Landing" },
  });
  const start: string | null = (await moved.json()).storyStart;
  expect(start).toBe("10231-01-02T06:30");

  const list = await api.timelines[":id"].events.$get({ param: { id }, query: { order: "chronological" } });
  expect((await list.json()).map((e) => [e.title, e.storyLabel, e.povEntityId])).toEqual([["Arrival", "Landing", mara.id]]);

  const entities = await api.timelines[":id"].entities.$get({ param: { id }, query: {} });
  expect((await entities.json()).map((e) => e.name)).toEqual(["Mara"]);
  const removed = await api.entities[":id"].$delete({ param: { id: String(mara.id) }, query: {} });
  expect(await removed.json()).toEqual({ success: true });
});
