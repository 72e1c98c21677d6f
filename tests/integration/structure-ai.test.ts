import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { BEAT_NOT_FOUND } from "../../worker/services/story-ai";
import { buildStoryBible } from "../../worker/services/story-context";
import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import { call, createTimeline, registerUser, shareWith, signInAdmin, fakeRequests } from "./helpers";

// The AI knows the story's structure: the bible names the beat sheet, each beat's scene and the beat the current
// scene falls on; 'Suggest a scene for this beat' asks for that beat's scene.

import type { EventView as Event } from "../../worker/services/event-list";

async function bookFromSaveTheCat() {
  const owner = await registerUser({ name: "Bea Beats" });
  const timeline = await createTimeline(owner.token, { title: "Cat Book", templateId: "save-the-cat" });
  const put = await call("PUT", `/api/timelines/${timeline.id}/structure`, { token: owner.token, body: { templateId: "save-the-cat" } });
  expect(put.status, put.text).toBe(200);
  const events = (await call("GET", `/api/timelines/${timeline.id}/events`, { token: owner.token })).json as Event[];
  // Placeholder scenes have no words: beats fall by scene count.
  const midpointScene = (put.json.beats as { title: string; eventId: number }[]).find((b) => b.title === "Midpoint")!.eventId;
  return { owner, timeline, events, midpointScene: events.find((e) => e.id === midpointScene)! };
}

describe("the AI and the story's structure", () => {
  beforeAll(async () => {
    const saved = await call("POST", "/api/config/openai-key", { token: (await signInAdmin()).token, body: { apiKey: FAKE_OPENAI_KEY } });
    expect(saved.status).toBe(200);
  });

  it("the story bible lists the beat sheet with each beat's scene, and the beat the current scene falls on", async () => {
    const { owner, timeline, midpointScene: midpoint } = await bookFromSaveTheCat();
    const bible = await buildStoryBible(
      createDb(env.DB),
      {},
      { ...timeline, structureTemplateId: "save-the-cat" },
      midpoint.id,
      owner.user,
    );
    expect(bible).toContain("Structure (Save the Cat");
    expect(bible).toContain(`- Midpoint (50%): ${midpoint.title}`);
    expect(bible).toMatch(/This scene falls on: Midpoint \(.+\)/);
    // Without a structure there is no such part.
    const plain = await buildStoryBible(createDb(env.DB), {}, { ...timeline, structureTemplateId: null }, midpoint.id, owner.user);
    expect(plain).not.toContain("Structure (");
  });

  it("'Suggest a scene for this beat' sends the beat, where it falls and the scene there; an unknown beat is refused", async () => {
    const { owner, timeline, midpointScene } = await bookFromSaveTheCat();
    const before = (await fakeRequests()).length;
    const res = await call("POST", "/api/story/suggest-plot", {
      token: owner.token,
      body: { timelineId: timeline.id, prompt: "Something quiet", beat: "midpoint" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json.suggestion.title).toBeTruthy();
    const sent = (await fakeRequests()).slice(before).at(-1);
    const user = sent.messages.at(-1).content as string;
    expect(user).toContain('Suggest one scene for the beat "Midpoint" of Save the Cat');
    expect(user).toContain(`It should fall at 50% of the story, where the scene "${midpointScene.title}" is now.`);
    expect(user).toContain("What the writer asks: Something quiet");

    const unknown = await call("POST", "/api/story/suggest-plot", {
      token: owner.token,
      body: { timelineId: timeline.id, prompt: "x", beat: "The Wedding" },
    });
    expect(unknown).toMatchObject({ status: 400, json: { error: BEAT_NOT_FOUND } });
    const long = await call("POST", "/api/story/suggest-plot", {
      token: owner.token,
      body: { timelineId: timeline.id, prompt: "x", beat: "b".repeat(201) },
    });
    expect(long).toMatchObject({ status: 400, json: { error: "Please keep the beat under 200 characters" } });
    expect((await fakeRequests()).length).toBe(before + 1);
  });

  it("a viewer may not ask, a stranger learns nothing, a timeline without a structure has no beats", async () => {
    const { owner, timeline } = await bookFromSaveTheCat();
    const viewer = await registerUser();
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    const stranger = await registerUser();
    const body = { timelineId: timeline.id, prompt: "x", beat: "Midpoint" };
    expect((await call("POST", "/api/story/suggest-plot", { token: viewer.token, body })).status).toBe(403);
    expect((await call("POST", "/api/story/suggest-plot", { token: stranger.token, body })).status).toBe(404);
    const bare = await createTimeline(owner.token, { title: "No beats" });
    const none = await call("POST", "/api/story/suggest-plot", { token: owner.token, body: { ...body, timelineId: bare.id } });
    expect(none).toMatchObject({ status: 400, json: { error: BEAT_NOT_FOUND } });
  });
});
