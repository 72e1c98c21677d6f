import { beforeAll, describe, expect, it } from "vitest";
import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import { call, createEvent, premiumOwnerWithTimeline, signInAdmin, lastRequestWith } from "./helpers";

beforeAll(async () => {
  const { token } = await signInAdmin();
  expect((await call("POST", "/api/config/openai-key", { token, body: { apiKey: FAKE_OPENAI_KEY } })).status).toBe(200);
});

describe("the AI's story bible and story time", () => {
  it("tells the model when the scene happens, its characters' ages and the scenes it comes after", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline("Lifelines");
    const character = async (body: Record<string, unknown>) =>
      (await call("POST", `/api/timelines/${timelineId}/entities`, { token: owner.token, body: { kind: "character", ...body } })).json;
    const mara = await character({ name: "Mara", born: "2014-05-10" });
    const tom = await character({ name: "Tom" });
    const letter = await createEvent(owner.token, timelineId, {
      title: "The letter arrives",
      content: "A letter.",
      storyStart: "2031-10-12",
    });
    const reply = await createEvent(owner.token, timelineId, {
      title: "The reply",
      content: "She writes back.",
      storyStart: "13 Oct 2031 9am",
      entityIds: [mara.id, tom.id],
    });
    const linked = await call("PATCH", `/api/events/${reply.id}`, { token: owner.token, body: { after: [letter.id] } });
    expect(linked.status, linked.text).toBe(200);

    const res = await call("POST", `/api/events/${reply.id}/continue`, { token: owner.token, body: { instruction: "[[story-time]]" } });
    expect(res.status, res.text).toBe(200);
    const prompt: string = (await lastRequestWith("[[story-time]]")).user;
    expect(prompt).toContain("The letter arrives (12 October 2031): A letter.");
    expect(prompt).toContain("This scene's story time: 13 October 2031, 9:00");
    expect(prompt).toContain("Characters in this scene: Mara (17), Tom");
    expect(prompt).toContain("This scene comes after: The letter arrives");
    expect(prompt).not.toContain("2031-10-12");
  });
});
