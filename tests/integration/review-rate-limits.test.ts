import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";

// The review's reads have budgets of their own: a scene's text for read mode and the activity list.

type Res = Awaited<ReturnType<typeof call>>;

function expectLimited(res: Res, what: string) {
  expect(res.status, res.text).toBe(429);
  expect(res.json.error).toMatch(new RegExp(`^Too many ${what}\\. Please try again in \\d+ minutes?\\.$`));
  expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
}

async function ownerAndViewer() {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title: "Review budget" });
  const event = await createEvent(owner.token, timeline.id, { title: "The storm", content: "The storm breaks." });
  const viewer = await registerUser({ name: "Vic Viewer" });
  await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
  return { owner, viewer, timelineId: timeline.id as number, eventId: event.id as number };
}

describe("rate limits on the review's reads", () => {
  it("GET /api/events/{id}/doc-state: 429 past the limit per account, another reader unaffected", async () => {
    const limited = { ...env, RATE_DOC_STATE_PER_ACCOUNT_PER_HOUR: "3" };
    const { owner, viewer, eventId } = await ownerAndViewer();
    const state = (token: string) => call("GET", `/api/events/${eventId}/doc-state`, { token, env: limited });
    for (let i = 0; i < 3; i++) expect((await state(viewer.token)).status).toBe(200);
    expectLimited(await state(viewer.token), "scene loads");
    expect((await state(owner.token)).status).toBe(200);
  });

  it("GET /api/timelines/{id}/activity: 429 past the limit per account, another reader unaffected", async () => {
    const limited = { ...env, RATE_ACTIVITY_PER_ACCOUNT_PER_HOUR: "2" };
    const { owner, viewer, timelineId } = await ownerAndViewer();
    const activity = (token: string) => call("GET", `/api/timelines/${timelineId}/activity`, { token, env: limited });
    for (let i = 0; i < 2; i++) expect((await activity(viewer.token)).status).toBe(200);
    expectLimited(await activity(viewer.token), "activity requests");
    expect((await activity(owner.token)).status).toBe(200);
  });
});
