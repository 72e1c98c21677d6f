import { describe, expect, it } from "vitest";
import { DEADLINE_MESSAGE, WRITING_DAYS_MESSAGE } from "../../db/domain/validation";
import { dailyQuota, writingDaysLeft } from "../../db/domain/deadlines";
import { call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";

// Deadlines (DESIGN §12 'Deadlines, sessions and tasks'): a timeline's deadline and writing days, and the
// progress's daily quota: the words still to write over the writing days left, today and the deadline included.

describe("the daily quota's maths", () => {
  // 2026-11-23 is a Monday.
  it("counts only writing days, today and the deadline included", () => {
    expect(writingDaysLeft("2026-11-23", "2026-11-29", [1, 2, 3, 4, 5, 6, 7])).toBe(7);
    expect(writingDaysLeft("2026-11-23", "2026-11-29", [1, 3, 5])).toBe(3);
    expect(writingDaysLeft("2026-11-23", "2026-11-23", [1])).toBe(1);
    expect(writingDaysLeft("2026-11-24", "2026-11-29", [1])).toBe(0);
    expect(dailyQuota({ today: "2026-11-23", deadline: "2026-11-29", writingDays: [1, 3, 5], targetWords: 10_000, wordCount: 2_500 })).toBe(
      2_500,
    );
    // Rounded up: 1,000 words over 3 days is 334 a day.
    expect(dailyQuota({ today: "2026-11-23", deadline: "2026-11-25", writingDays: [1, 2, 3], targetWords: 1_000, wordCount: 0 })).toBe(334);
  });

  it("past the deadline all that is left is due; past the target nothing is; no deadline or target: null", () => {
    expect(
      dailyQuota({ today: "2026-12-01", deadline: "2026-11-29", writingDays: [1, 2, 3, 4, 5, 6, 7], targetWords: 5_000, wordCount: 4_000 }),
    ).toBe(1_000);
    expect(dailyQuota({ today: "2026-11-23", deadline: "2026-11-29", writingDays: [1], targetWords: 5_000, wordCount: 6_000 })).toBe(0);
    expect(dailyQuota({ today: "2026-11-23", deadline: null, writingDays: [1], targetWords: 5_000, wordCount: 0 })).toBeNull();
    expect(dailyQuota({ today: "2026-11-23", deadline: "2026-11-29", writingDays: [1], targetWords: null, wordCount: 0 })).toBeNull();
  });
});

describe("deadlines through the API", () => {
  it("the owner sets a deadline and writing days; progress gives the quota and today's words", async () => {
    const owner = await registerUser();
    const timeline = await createTimeline(owner.token, { title: "The Lantern" });
    await createEvent(owner.token, timeline.id, { title: "Dawn", content: "one two three four five" });
    const before = await call("GET", `/api/timelines/${timeline.id}/progress`, { token: owner.token });
    expect(before.status, before.text).toBe(200);
    expect(before.json).toMatchObject({ deadline: null, dailyQuota: null, today: { words: expect.any(Number) } });
    expect(before.json.today.words).toBe(before.json.days.at(-1).words);

    const far = new Date(Date.now() + 9 * 86_400_000).toISOString().slice(0, 10);
    const set = await call("PATCH", `/api/timelines/${timeline.id}`, {
      token: owner.token,
      body: { deadline: far, writingDays: [7, 1, 2, 3, 4, 5, 6], targetWords: 1_005 },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.json).toMatchObject({ deadline: far, writingDays: [1, 2, 3, 4, 5, 6, 7] });
    const after = await call("GET", `/api/timelines/${timeline.id}/progress`, { token: owner.token });
    // 1,000 words left over the 10 days from today to the deadline.
    expect(after.json).toMatchObject({ deadline: far, dailyQuota: 100 });

    const cleared = await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body: { deadline: null } });
    expect(cleared.json.deadline).toBeNull();
    expect((await call("GET", `/api/timelines/${timeline.id}/progress`, { token: owner.token })).json.dailyQuota).toBeNull();
  });

  it("refuses a date that is not real and writing days that are not distinct weekdays, with clear messages", async () => {
    const owner = await registerUser();
    const timeline = await createTimeline(owner.token, { title: "The Lantern" });
    for (const deadline of ["2026-02-30", "tomorrow", "2026-13-01", 20261201, "2026-1-5"]) {
      const res = await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body: { deadline } });
      expect(res.status, String(deadline)).toBe(400);
      expect(res.json.error).toBe(DEADLINE_MESSAGE);
    }
    for (const writingDays of [[], [0], [8], [1, 1], [1.5], ["1"], "1,2", Array.from({ length: 5000 }, () => 1)]) {
      const res = await call("PATCH", `/api/timelines/${timeline.id}`, { token: owner.token, body: { writingDays } });
      expect(res.status, JSON.stringify(writingDays).slice(0, 40)).toBe(400);
      expect(res.json.error).toBe(WRITING_DAYS_MESSAGE);
    }
  });

  it("editors, viewers and strangers cannot set a deadline; a forged id is not found", async () => {
    const owner = await registerUser();
    const timeline = await createTimeline(owner.token, { title: "The Lantern" });
    const co = await registerUser();
    const viewer = await registerUser();
    const stranger = await registerUser();
    await shareWith(timeline.id, owner.user.id, co.user.id, "collaborator");
    await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
    for (const who of [co, viewer, stranger]) {
      const res = await call("PATCH", `/api/timelines/${timeline.id}`, { token: who.token, body: { deadline: "2030-01-01" } });
      expect([403, 404]).toContain(res.status);
    }
    expect((await call("PATCH", "/api/timelines/99999999", { token: owner.token, body: { deadline: "2030-01-01" } })).status).toBe(404);
    const view = await call("GET", `/api/timelines/${timeline.id}`, { token: owner.token });
    expect(view.json.deadline).toBeNull();
    // A viewer still reads the progress, quota included.
    expect((await call("GET", `/api/timelines/${timeline.id}/progress`, { token: viewer.token })).json).toHaveProperty("dailyQuota", null);
  });
});
