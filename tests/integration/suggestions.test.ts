import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { DocFields } from "../../db/domain/rich-text";
import { listSuggestions, suggestionId } from "../../db/domain/suggestions";
import { yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap";
import { type DocClient, openDoc, setupSharedScene, storedEvent, waitUntil } from "./doc-helpers";
import { call, capturedMail, markVerified } from "./helpers";
import { closedWith } from "./room-helpers";

// Suggested edits in the shared doc, by real Yjs clients through the Worker: marks on the text, as the editor's
// Suggesting mode writes them. D1 (what exports, word counts and cards read) keeps the text before them.

const firstText = (c: DocClient, index = 0) => (c.doc.getXmlFragment(DocFields.content).get(index) as Y.XmlElement).get(0) as Y.XmlText;
const suggestions = (c: DocClient) => listSuggestions(yXmlFragmentToProsemirrorJSON(c.doc.getXmlFragment(DocFields.content)));
const plain = (t: Y.XmlText) =>
  t
    .toDelta()
    .map((op: { insert: string }) => op.insert)
    .join("");
/** The scene's text as the timeline's events API gives it (what cards, exports and word counts read). */
async function apiContent(timelineId: number, eventId: number, token: string) {
  const events = (await call("GET", `/api/timelines/${timelineId}/events`, { token })).json as Array<{ id: number; content: string }>;
  return events.find((e) => e.id === eventId)?.content;
}

describe("suggestions in the shared doc", () => {
  it("are seen live by the other writer; D1 leaves the insertion out and keeps the deleted text until accepted", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("The storm breaks over the harbour.");
    const a = await openDoc(timeline.id, event.id, collab.token);
    const b = await openDoc(timeline.id, event.id, owner.token);
    const insId = suggestionId(collab.user.id, "Mara");
    const delId = suggestionId(collab.user.id, "Mara");
    a.doc.transact(() => {
      const t = firstText(a);
      t.insert(4, "great ", { insertion: { id: insId } });
      // "over the harbour" → "over the " with "harbour" marked deleted.
      t.format(plain(t).indexOf("harbour"), "harbour".length, { deletion: { id: delId } });
    });
    const seen = await waitUntil(() => (suggestions(b).length === 2 ? suggestions(b) : null), "the other writer sees both");
    expect(seen.map(({ kind, text, name, userId }) => ({ kind, text, name, userId }))).toEqual([
      { kind: "insertion", text: "great ", name: "Mara", userId: collab.user.id },
      { kind: "deletion", text: "harbour", name: "Mara", userId: collab.user.id },
    ]);
    // Saving writes the text before the suggestions.
    const reply = await a.save();
    expect("version" in reply).toBe(true);
    expect((await storedEvent(event.id)).content).toBe("The storm breaks over the harbour.");
    expect(await apiContent(timeline.id, event.id, owner.token)).toBe("The storm breaks over the harbour.");

    // The owner accepts both: the insertion's mark goes, the deleted text goes.
    b.doc.transact(() => {
      const t = firstText(b);
      const text = plain(t);
      t.format(text.indexOf("great "), "great ".length, { insertion: null });
      t.delete(text.indexOf("harbour"), "harbour".length);
    });
    await waitUntil(() => suggestions(a).length === 0, "the suggester sees them accepted");
    expect("version" in (await b.save())).toBe(true);
    expect(await apiContent(timeline.id, event.id, owner.token)).toBe("The great storm breaks over the .");
    a.close();
    b.close();
  });

  it("rejected suggestions leave the text as it was", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("Mara runs for the boats.");
    const a = await openDoc(timeline.id, event.id, collab.token);
    const t = firstText(a);
    t.insert(0, "Slowly, ", { insertion: { id: suggestionId(collab.user.id, "Mara") } });
    t.format(plain(t).indexOf("boats"), 5, { deletion: { id: suggestionId(collab.user.id, "Mara") } });
    expect("version" in (await a.save())).toBe(true);
    expect(await apiContent(timeline.id, event.id, owner.token)).toBe("Mara runs for the boats.");
    // Rejecting: the inserted text goes, the deleted text loses its mark.
    t.delete(0, "Slowly, ".length);
    t.format(plain(t).indexOf("boats"), 5, { deletion: null });
    expect(suggestions(a)).toEqual([]);
    expect(await apiContent(timeline.id, event.id, owner.token)).toBe("Mara runs for the boats.");
    a.close();
  });

  it("a suggestion whose id names someone else is put in the name of the writer who sent it", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("Mara runs for the boats.");
    const a = await openDoc(timeline.id, event.id, collab.token);
    const o = await openDoc(timeline.id, event.id, owner.token);
    const forged = suggestionId(owner.user.id, "Olive Owner");
    a.doc.transact(() => {
      const t = firstText(a);
      t.insert(0, "Slowly, ", { insertion: { id: forged } });
      t.format(plain(t).indexOf("boats"), 5, { deletion: { id: forged } });
      // A new paragraph whose text is marked too.
      const paragraph = new Y.XmlElement("paragraph");
      const text = new Y.XmlText();
      text.insert(0, "Burn the boats.", { insertion: { id: suggestionId(owner.user.id + 7, "Olive Owner") } });
      paragraph.insert(0, [text]);
      a.doc.getXmlFragment(DocFields.content).insert(1, [paragraph]);
    });
    const seen = await waitUntil(() => {
      const list = suggestions(o);
      return list.length === 2 && list.every((s) => s.userId === collab.user.id) ? list : null;
    }, "the owner sees every suggestion in the collaborator's name");
    expect(seen.map((s) => s.name)).toEqual(["Mara", "Mara"]);
    // The parts of one suggestion stay one: "Slowly, " in for "boats" is one replacement.
    expect(seen.map((s) => s.kind)).toContain("replacement");
    expect(new Set(seen.map((s) => s.id)).size).toBe(2);
    // The writer who sent them hears the same, and the text before the suggestions is what D1 keeps.
    await waitUntil(() => suggestions(a).every((s) => s.userId === collab.user.id), "the sender's copy follows");
    expect("version" in (await a.save())).toBe(true);
    expect(await apiContent(timeline.id, event.id, owner.token)).toBe("Mara runs for the boats.");
    // A writer's own suggestion keeps its id.
    const mine = suggestionId(collab.user.id, "Mara");
    firstText(a).insert(0, "At dawn, ", { insertion: { id: mine } });
    await waitUntil(() => suggestions(o).some((s) => s.id === mine), "an own suggestion arrives as it is");
    a.close();
    o.close();
  });

  it("malformed suggestion marks never break saving", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("Mara runs for the boats.");
    const a = await openDoc(timeline.id, event.id, collab.token);
    const t = firstText(a);
    t.insert(0, "X ", { insertion: "not an object" });
    t.insert(0, "Y ", { insertion: { id: { nested: [1, 2] } } });
    t.format(0, 1, { deletion: 42 });
    t.insert(t.length, " Z", { deletion: { id: null }, bold: {} });
    // Either the server refused the hostile update (the socket closes) or it saved it; in both cases the text is
    // saved and readable.
    const reply = await Promise.race([a.save(), closedWith(a, 8000).then(() => null)]);
    const content = await apiContent(timeline.id, event.id, owner.token);
    expect(content).not.toContain("X ");
    expect(content).toContain("Mara runs for the boats.");
    // A writer's ordinary edit after it still saves.
    const b = await openDoc(timeline.id, event.id, owner.token);
    firstText(b).insert(firstText(b).length, " Then the rain.");
    expect("version" in (await b.save()) || (reply !== null && "version" in reply)).toBe(true);
    await waitUntil(
      async () => ((await apiContent(timeline.id, event.id, owner.token)) ?? "").includes("Then the rain."),
      "an ordinary edit saved",
      8000,
    );
    a.close();
    b.close();
  });
});

type Inbox = {
  notifications: Array<{ type: string; title: string; message: string; relatedId: number; relatedType: string }>;
  unread: number;
};
const inbox = async (token: string) => (await call("GET", "/api/notifications", { token })).json as Inbox;
const suggestionNotices = async (token: string) => (await inbox(token)).notifications.filter((n) => n.type === "suggestion");

describe("suggestion notifications", () => {
  it("tell the timeline's owner once per batch of a collaborator's suggestions (not per keystroke), and mail them", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("The storm breaks over the harbour.");
    await markVerified(collab.email);
    const a = await openDoc(timeline.id, event.id, collab.token);
    const mail = await capturedMail(async () => {
      // Typed as the editor does: one transaction per keystroke, each with its own suggestion id.
      for (const [i, ch] of [..."great "].entries())
        firstText(a).insert(4 + i, ch, { insertion: { id: suggestionId(collab.user.id, "Mara") } });
      expect("version" in (await a.save())).toBe(true);
      await waitUntil(async () => (await suggestionNotices(owner.token)).length > 0, "the owner's notification", 8000);
      // The mail leaves after the notification is stored.
      await new Promise((r) => setTimeout(r, 300));
    });
    const notices = await suggestionNotices(owner.token);
    expect(notices).toEqual([
      expect.objectContaining({
        type: "suggestion",
        title: "Mara suggested edits",
        message: `Mara suggested edits to "The storm" in "${timeline.title}"`,
        relatedId: event.id,
        relatedType: "event",
      }),
    ]);
    expect(mail).toContain(`to=${owner.email} subject="Mara suggested edits"`);
    expect(mail).toContain(`/timeline/${timeline.id}?event=${event.id}`);
    // Another save with nothing new tells nobody; the next batch within the half hour folds into the first notice
    // (one per writer per scene per window, tests/integration/mail-budget.test.ts).
    expect("version" in (await a.save())).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await suggestionNotices(owner.token)).toHaveLength(1);
    firstText(a).format(0, 3, { deletion: { id: suggestionId(collab.user.id, "Mara") } });
    expect("version" in (await a.save())).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(await suggestionNotices(owner.token)).toHaveLength(1);
    // The collaborator hears nothing of their own suggestions.
    expect(await suggestionNotices(collab.token)).toEqual([]);
    a.close();
  });

  it("are not sent for the owner's own suggestions; one whose id names someone else is its sender's", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("Mara runs for the boats.");
    const o = await openDoc(timeline.id, event.id, owner.token);
    firstText(o).insert(0, "Slowly, ", { insertion: { id: suggestionId(owner.user.id, "Olive Owner") } });
    expect("version" in (await o.save())).toBe(true);
    const a = await openDoc(timeline.id, event.id, collab.token);
    await new Promise((r) => setTimeout(r, 500));
    expect(await suggestionNotices(owner.token)).toEqual([]);
    // The collaborator's client claims the owner made it: it is put in the collaborator's name, and notified as theirs.
    firstText(a).insert(0, "Then ", { insertion: { id: suggestionId(owner.user.id, "Olive Owner") } });
    expect("version" in (await a.save())).toBe(true);
    const [notice] = await waitUntil(
      async () => {
        const list = await suggestionNotices(owner.token);
        return list.length === 1 ? list : null;
      },
      "the collaborator's suggestion",
      8000,
    );
    expect(`${notice.title} ${notice.message}`).toContain("Mara");
    expect(`${notice.title} ${notice.message}`).not.toContain("Olive");
    // Plain typing next to suggestions already there is no new suggestion.
    a.close();
    o.close();
    const b = await openDoc(timeline.id, event.id, collab.token);
    b.type(" Fast.");
    expect("version" in (await b.save())).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(await suggestionNotices(owner.token)).toHaveLength(1);
    b.close();
  });
});
