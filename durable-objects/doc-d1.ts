// What the shared doc reads of its event in D1, and the version it keeps of its text before D1's replaces it.
import { and, eq, isNull } from "drizzle-orm";
import type * as Y from "yjs";
import type { Db } from "../db/client";
import { events, timelines } from "../db/schema";
import { versionStatements } from "../worker/services/version-record";
import type { Author } from "./doc-storage";
import { checkText } from "./doc-text";

export function loadEventRow(db: Db, eventId: number) {
  return (
    db
      .select({ timelineId: events.timelineId, title: events.title, content: events.content, version: events.version })
      .from(events)
      .innerJoin(timelines, eq(timelines.id, events.timelineId))
      // A scene in Trash, or in a timeline in Trash, has no doc until it is restored.
      .where(and(eq(events.id, eventId), isNull(events.deletedAt), isNull(timelines.deletedAt)))
      .get()
  );
}

/** The doc's text as a version by `author` (nothing else changes): kept before D1's newer text replaces it. */
export async function keepAsVersion(db: Db, eventId: number, doc: Y.Doc, author: Author) {
  const text = checkText(doc);
  if (text.problem) return;
  const { title, content } = text;
  await db.batch(versionStatements(db, { eventId, author, title, content }));
}
