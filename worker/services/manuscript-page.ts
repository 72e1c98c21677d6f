import type { Db } from "../../db/client";
import { markdownToHtml } from "../../db/domain/render-text";
import { countWords } from "../../db/domain/word-count";
import type { User } from "../../db/schema";
import { loadBookRows } from "./manuscript";
import { getTimeline } from "./timelines";

// The manuscript view: every scene's text in story order under its chapter headings, rendered on the server so
// the page reads at once (the editors mount in the browser over the scenes near the viewport).

export type ManuscriptScene = {
  id: number;
  title: string;
  chapterId: number | null;
  /** The scene's text as escaped HTML (its headings start at h3, under the chapter's h2). */
  html: string;
  words: number;
};
export type ManuscriptChapter = { id: number; title: string };

export async function loadManuscript(db: Db, user: User, timelineId: number, shareCode?: string | null) {
  // The timeline page's access (own, shared, or by a share link); missing or not readable: the services' 404.
  const timeline = await getTimeline(db, user, timelineId, shareCode);
  const { chapters: chapterRows, scenes: sceneRows } = await loadBookRows(db, timelineId);
  const scenes: ManuscriptScene[] = sceneRows.map((e) => ({
    id: e.id,
    title: e.title,
    chapterId: e.chapterId,
    html: markdownToHtml(e.content ?? "", 3),
    words: countWords(e.content ?? ""),
  }));
  const chapters: ManuscriptChapter[] = chapterRows.map((c) => ({ id: c.id, title: c.title }));
  return { timeline, chapters, scenes };
}
