// Several books from one file (a Plottr file's books, novelWriter's novel roots): each a timeline, together a new
// series in book order. The free plan's limit is checked for all of them before the first is written, so a file
// of three books never leaves one or two behind.
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db/client";
import { FREE_TIMELINE_LIMIT } from "../../../db/domain/rules";
import type { TimelineDocument } from "../../../db/domain/timeline-transfer";
import { type User, timelines } from "../../../db/schema";
import { forbidden } from "../../lib/errors";
import { isPremium } from "../plans";
import { createSeries } from "../series";
import { FREE_LIMIT_MESSAGE } from "../timelines";
import { importTimeline } from "../transfer";

const SERIES_TITLE = 200;

export async function importBooks(db: Db, user: User, documents: TimelineDocument[], seriesTitle?: string) {
  if (!isPremium(user)) {
    const owned = await db
      .select({ n: count() })
      .from(timelines)
      .where(and(eq(timelines.userId, user.id), isNull(timelines.deletedAt)))
      .get();
    if ((owned?.n ?? 0) + documents.length > FREE_TIMELINE_LIMIT) throw forbidden(FREE_LIMIT_MESSAGE);
  }
  const created = [];
  for (const doc of documents) created.push(await importTimeline(db, user, doc));
  const title = (seriesTitle || documents[0].timeline.title).slice(0, SERIES_TITLE);
  const series = await createSeries(db, user, { title, timelineIds: created.map((t) => t.id) });
  return { ...created[0], timelines: created, series };
}
