// Setting up a timeline through the API (what a test is not about) and reading its cards.
import { type APIRequestContext, type Page, expect } from "@playwright/test";
import { type TestUser, apiAs, createUser, makePremium } from "../fixtures";
import type { Timeline } from "../types";

/** The owner shares the timeline with `user` by email (POST /api/timelines/{id}/share-with-user). */
export async function shareWith(
  request: APIRequestContext,
  owner: TestUser,
  timelineId: number,
  user: Pick<TestUser, "email">,
  accessLevel: "viewer" | "collaborator",
) {
  await apiAs(request, owner, "POST", `/api/timelines/${timelineId}/share-with-user`, { userEmail: user.email, accessLevel });
}

/** The owner removes `user` from the timeline's shares (GET /api/timelines/{id}/shares, then DELETE …/shares/{userId}). */
export async function unshare(request: APIRequestContext, owner: TestUser, timelineId: number, user: Pick<TestUser, "email">) {
  const shares = await apiAs<{ sharedWithUserId: number; sharedWithUserEmail: string }[]>(
    request,
    owner,
    "GET",
    `/api/timelines/${timelineId}/shares`,
  );
  const share = shares.find((s) => s.sharedWithUserEmail === user.email);
  expect(share, `${user.email} is among the timeline's shares`).toBeDefined();
  await apiAs(request, owner, "DELETE", `/api/timelines/${timelineId}/shares/${share?.sharedWithUserId}`);
}

/** The count button (comments, suggestions) named `label` on an event card. */
export const countButton = (page: Page, label: string) => page.getByTestId("event-card").getByRole("button", { name: label, exact: true });

/** A Premium writer ('Olive Owner' unless named) who owns a new timeline titled `title`. */
export async function premiumOwnerWithTimeline(request: APIRequestContext, title: string, name = "Olive Owner") {
  const owner = await createUser(request, { name });
  await makePremium(request, owner);
  const timeline = await apiAs<Timeline>(request, owner, "POST", "/api/timelines", { title });
  return { owner, timeline };
}

type People = { name: string; access: "collaborator" | "viewer" }[];

/**
 * The scene the co-writing specs write in: a Premium owner's 'The Drowned Bell' with one scene, 'The bell', of
 * `content`, shared with each of `people` (new accounts, in that order; `users` in the answer).
 */
export async function bellScene(request: APIRequestContext, content: string, people: People = []) {
  const { owner, timeline } = await premiumOwnerWithTimeline(request, "The Drowned Bell");
  const { users } = await addBellScene(request, owner, timeline, content, people);
  return { owner, timeline, users };
}

/**
 * The bell scene on a timeline the test has already (the `timeline` fixture's: `test.use({ writerOptions: { name:
 * "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" })` for the same book as `bellScene`).
 */
export async function addBellScene(request: APIRequestContext, owner: TestUser, timeline: Timeline, content: string, people: People = []) {
  await apiAs(request, owner, "POST", `/api/timelines/${timeline.id}/events`, { title: "The bell", content });
  const users: TestUser[] = [];
  for (const person of people) {
    const user = await createUser(request, { name: person.name });
    await shareWith(request, owner, timeline.id, user, person.access);
    users.push(user);
  }
  return { users };
}
