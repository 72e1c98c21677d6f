// Who hears about suggested edits in a scene: the timeline's owner, once per batch of a writer's new
// suggestions (what settled between two saves of the doc), never per keystroke, never about their own, and
// at most once per writer per scene in a window (`suggestionNotices`): a writer saving every few seconds is
// one notice, not one per save. The suggestions themselves are all in the scene.
import { yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap";
import { eq, inArray } from "drizzle-orm";
import type * as Y from "yjs";
import type { Db } from "../db/client";
import { DocFields } from "../db/domain/rich-text";
import { newSuggestionsForOwner } from "../db/domain/suggestions";
import { events, timelines, users } from "../db/schema";
import { type NotifyMail, notificationPath, notify } from "../worker/services/notifications";
import { spareBudget } from "../worker/services/rate-limits";

type JSONContent = ReturnType<typeof yXmlFragmentToProsemirrorJSON>;

const contentOf = (doc: Y.Doc): JSONContent | null => {
  try {
    return yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(DocFields.content));
  } catch {
    return null;
  }
};

export class SuggestionWatch {
  /** The content as of the last batch: suggestions in it are known (told already, or there before the doc loaded). */
  private before: JSONContent | null = null;
  /** The writers whose updates arrived since the last batch (only their own suggestions are theirs to tell). */
  private writers = new Map<number, string>();

  /** The doc as loaded: what it holds is not new. */
  start(doc: Y.Doc) {
    this.before = contentOf(doc);
  }

  /** A writer's update reached the doc. */
  wrote(userId: number, name: string) {
    this.writers.set(userId, name);
  }

  /**
   * The doc saved (its edits settled): each writer with new suggestions since the last batch is one `suggestion`
   * notification to the timeline's owner (mailed per their notifyEmail). The batch is taken at once, so saves that
   * overlap never tell twice.
   */
  async settle(doc: Y.Doc, db: Db, ids: { eventId: number; timelineId: number }, mail: NotifyMail | undefined) {
    if (this.writers.size === 0 || !this.before) return;
    const after = contentOf(doc);
    if (!after) return;
    const before = this.before;
    const writers = this.writers;
    this.before = after;
    this.writers = new Map();
    // Suggestions by anyone but the writers who sent updates are not theirs (an id names its author, and a client
    // could name someone else): 0 as the owner here lets them all through, the owner is left out below.
    const fresh = newSuggestionsForOwner(before, after, 0).filter((s) => s.userId !== null && writers.has(s.userId));
    if (fresh.length === 0) return;
    const row = await db
      .select({
        ownerId: timelines.userId,
        timelineTitle: timelines.title,
        email: users.email,
        notifyEmail: users.notifyEmail,
        sceneTitle: events.title,
      })
      .from(events)
      .innerJoin(timelines, eq(timelines.id, events.timelineId))
      .innerJoin(users, eq(users.id, timelines.userId))
      .where(eq(events.id, ids.eventId))
      .get();
    if (!row) return;
    const by = new Set(fresh.filter((s) => s.userId !== row.ownerId).map((s) => s.userId as number));
    const path = notificationPath({ timelineId: ids.timelineId, eventId: ids.eventId });
    const to = { id: row.ownerId, email: row.email, notifyEmail: row.notifyEmail };
    if (by.size === 0) return;
    const verified = await db
      .select({ id: users.id, isEmailVerified: users.isEmailVerified })
      .from(users)
      .where(inArray(users.id, [...by]));
    for (const userId of by) {
      const window = `${row.ownerId}:${ids.eventId}:${userId}`;
      if ((await spareBudget({ db, env: mail?.env ?? {} }, "suggestionNotices", window)) < 0) continue;
      const from = { isEmailVerified: verified.find((v) => v.id === userId)?.isEmailVerified ?? false };
      const who = writers.get(userId) ?? "Someone";
      await notify(
        db,
        mail,
        to,
        {
          type: "suggestion",
          title: `${who} suggested edits`,
          message: `${who} suggested edits to "${row.sceneTitle}" in "${row.timelineTitle}"`,
          relatedId: ids.eventId,
          relatedType: "event",
          timelineId: ids.timelineId,
        },
        path,
        from,
      );
    }
  }
}
