import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { unlinkedMentions } from "../../db/domain/story-analysis";
import type { EntityView } from "../../worker/services/entities";
import type { EventView } from "../../worker/services/events";
import { call, createEvent, createTimeline, makePremium, registerUser, shareWith, type User } from "./helpers";

// POST /api/timelines/{id}/codex/link-mentions: 'Link all mentions' for a book.

let owner: User, collaborator: User, viewer: User, stranger: User;

beforeAll(async () => {
  [owner, collaborator, viewer, stranger] = await Promise.all([registerUser(), registerUser(), registerUser(), registerUser()]);
  await makePremium(owner.user.id);
});

const path = (id: number | string) => `/api/timelines/${id}/codex/link-mentions`;

async function entry(timelineId: number, body: Record<string, unknown>) {
  const res = await call("POST", `/api/timelines/${timelineId}/entities`, { token: owner.token, body: { kind: "character", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json as EntityView;
}

async function links(timelineId: number) {
  const rows = await env.DB.prepare(
    "SELECT l.event_id AS eventId, l.entity_id AS entityId FROM event_entities l JOIN events e ON e.id = l.event_id WHERE e.timeline_id = ? ORDER BY 1, 2",
  )
    .bind(timelineId)
    .all<{ eventId: number; entityId: number }>();
  return rows.results.map((r) => `${r.eventId}:${r.entityId}`);
}

/** A book shared with a collaborator and a viewer: three entries and four scenes naming them in different ways. */
async function book() {
  const tl = await createTimeline(owner.token, { title: "Mentions" });
  await shareWith(tl.id, owner.user.id, collaborator.user.id, "collaborator");
  await shareWith(tl.id, owner.user.id, viewer.user.id, "viewer");
  const mara = await entry(tl.id, { name: "Mara", aliases: ["the Captain"] });
  const harbor = await entry(tl.id, { name: "Harbor", kind: "place" });
  const ilse = await entry(tl.id, { name: "Ilse" });
  const scenes = [
    // Name in any case, the alias, a place: two links (Mara once, however often and however she is named).
    await createEvent(owner.token, tl.id, { title: "Arrival", content: "MARA reached the harbor. The captain waved. mara smiled." }),
    // Already linked to Mara: only Ilse is new. 'Harborside' is not a whole word 'Harbor'.
    await createEvent(owner.token, tl.id, { title: "Ilse.", content: "Mara walked to Harborside.", entityIds: [mara.id] }),
    // Names inside other words only: nothing.
    await createEvent(owner.token, tl.id, { title: "Quiet", content: "Marathon runners; Ilsebill." }),
    // Named in the title only.
    await createEvent(owner.token, tl.id, { title: "Harbor at night", content: "Rain." }),
  ];
  return { id: tl.id as number, mara, harbor, ilse, scenes: scenes as EventView[] };
}

describe("POST /api/timelines/{id}/codex/link-mentions", () => {
  it("links every entry to every scene that names it, exactly as the cards' hints find them, and answers how many", async () => {
    const b = await book();
    const [arrival, ilseScene, quiet, night] = b.scenes;
    const codex = [b.mara, b.harbor, b.ilse];
    // The hints the cards show before: the same pairs the endpoint is to link.
    const hinted = b.scenes.flatMap((s) => unlinkedMentions(s, codex).map((e) => `${s.id}:${e.id}`));
    expect(hinted).toHaveLength(4);

    const res = await call("POST", path(b.id), { token: collaborator.token });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ linked: 4 });
    const after = await links(b.id);
    expect(after).toEqual(
      [
        `${arrival.id}:${b.mara.id}`,
        `${arrival.id}:${b.harbor.id}`,
        `${ilseScene.id}:${b.mara.id}`, // linked before
        `${ilseScene.id}:${b.ilse.id}`,
        `${night.id}:${b.harbor.id}`,
      ].sort(),
    );
    expect(after.some((l) => l.startsWith(`${quiet.id}:`))).toBe(false);

    // The scenes read back with their new links; no hint is left.
    const list = await call("GET", `/api/timelines/${b.id}/events`, { token: owner.token });
    const events = ((list.json as { events?: EventView[] }).events ?? (list.json as EventView[])) as EventView[];
    for (const e of events) expect(unlinkedMentions(e, codex)).toEqual([]);

    // Nothing left to link: a second press links none.
    const again = await call("POST", path(b.id), { token: owner.token });
    expect(again.json).toEqual({ linked: 0 });
    expect(await links(b.id)).toEqual(after);
  });

  it("leaves trashed scenes alone and answers 0 for a book without a codex", async () => {
    const b = await book();
    const del = await call("DELETE", `/api/events/${b.scenes[0].id}`, { token: owner.token });
    expect(del.status, del.text).toBe(200);
    const res = await call("POST", path(b.id), { token: owner.token });
    expect(res.json).toEqual({ linked: 2 });
    expect((await links(b.id)).some((l) => l.startsWith(`${b.scenes[0].id}:`))).toBe(false);

    const empty = await createTimeline(owner.token, { title: "No codex" });
    await createEvent(owner.token, empty.id, { title: "Mara", content: "Mara." });
    const none = await call("POST", path(empty.id), { token: owner.token });
    expect(none.status).toBe(200);
    expect(none.json).toEqual({ linked: 0 });
  });

  it("attacker's pass: viewer 403, another account 404, forged or unknown id 404, signed out 401; nothing linked", async () => {
    const b = await book();
    const before = await links(b.id);
    const asViewer = await call("POST", path(b.id), { token: viewer.token });
    expect(asViewer.status).toBe(403);
    expect((asViewer.json as { error: string }).error).toBe("You have view-only access to this timeline");
    const asStranger = await call("POST", path(b.id), { token: stranger.token });
    expect(asStranger.status).toBe(404);
    expect((asStranger.json as { error: string }).error).toBe("Timeline not found");
    for (const forged of ["abc", "1e3", "-1", "0", "999999999"]) {
      const res = await call("POST", path(forged), { token: owner.token });
      expect(res.status, forged).toBe(404);
      expect((res.json as { error: string }).error).toBe("Timeline not found");
    }
    const signedOut = await call("POST", path(b.id));
    expect(signedOut.status).toBe(401);
    expect(await links(b.id)).toEqual(before);
  });
});
