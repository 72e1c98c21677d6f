import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "../../db/client";
import { users } from "../../db/schema";
import { loadManuscript } from "../../worker/services/manuscript-page";
import { call, createEvent, premiumOwnerWithTimeline, registerUser, shareWith } from "./helpers";

// The manuscript page's loader: the timeline page's access (share links too), the scenes in story order with their
// chapters, rendered and counted; trashed scenes left out.

const db = () => createDb(env.DB);
const userRow = async (id: number) => (await db().select().from(users).where(eq(users.id, id)).get())!;

async function book() {
  const { owner, timelineId } = await premiumOwnerWithTimeline("The Drowned Bell");
  const prologue = await createEvent(owner.token, timelineId, { title: "Prologue", content: "Before the *flood*." });
  const first = await createEvent(owner.token, timelineId, { title: "Harbor", content: "Mara <walked> the wall." });
  const trashed = await createEvent(owner.token, timelineId, { title: "Cut scene", content: "Gone." });
  const second = await createEvent(owner.token, timelineId, { title: "Storm", content: "東京は雨。" });
  const chapter = await env.DB.prepare("INSERT INTO chapters (timeline_id, title, position) VALUES (?, 'One', 0) RETURNING id")
    .bind(timelineId)
    .first<{ id: number }>();
  await env.DB.prepare("UPDATE events SET chapter_id = ? WHERE id IN (?, ?)").bind(chapter!.id, first.id, second.id).run();
  await env.DB.prepare("UPDATE events SET deleted_at = datetime('now') WHERE id = ?").bind(trashed.id).run();
  return { owner, timelineId, chapterId: chapter!.id, ids: [prologue.id, first.id, second.id] };
}

describe("manuscript", () => {
  it("gives the owner every scene in story order with its chapter, its text as HTML and its words", async () => {
    const { owner, timelineId, chapterId, ids } = await book();
    const m = await loadManuscript(db(), await userRow(owner.user.id), timelineId);
    expect(m.timeline).toMatchObject({ id: timelineId, title: "The Drowned Bell", accessLevel: "owner" });
    expect(m.chapters).toEqual([{ id: chapterId, title: "One" }]);
    expect(m.scenes).toEqual([
      { id: ids[0], title: "Prologue", chapterId: null, html: '<p dir="auto">Before the <em>flood</em>.</p>', words: 3 },
      { id: ids[1], title: "Harbor", chapterId, html: '<p dir="auto">Mara &lt;walked&gt; the wall.</p>', words: 4 },
      { id: ids[2], title: "Storm", chapterId, html: '<p dir="auto">東京は雨。</p>', words: 4 },
    ]);
  });

  it("reads for collaborators, viewers and share links; a stranger gets the timeline's 404", async () => {
    const { owner, timelineId } = await book();
    const collaborator = await registerUser({ name: "Cole" });
    const viewer = await registerUser({ name: "Vera" });
    const stranger = await registerUser({ name: "Otto" });
    await shareWith(timelineId, owner.user.id, collaborator.user.id, "collaborator");
    await shareWith(timelineId, owner.user.id, viewer.user.id, "viewer");
    const as = async (id: number, code?: string) => loadManuscript(db(), await userRow(id), timelineId, code);

    expect((await as(collaborator.user.id)).timeline.accessLevel).toBe("collaborator");
    expect((await as(viewer.user.id)).timeline.accessLevel).toBe("viewer");
    await expect(as(stranger.user.id)).rejects.toMatchObject({ status: 404, message: "Timeline not found" });

    const link = await call("POST", `/api/timelines/${timelineId}/share`, { token: owner.token, body: { role: "viewer" } });
    const withLink = await as(stranger.user.id, link.json.shareCode);
    expect(withLink.timeline.accessLevel).toBe("viewer");
    expect(withLink.scenes.map((s) => s.title)).toEqual(["Prologue", "Harbor", "Storm"]);
    await expect(as(stranger.user.id, "not-the-code")).rejects.toMatchObject({ status: 404 });
  });
});
