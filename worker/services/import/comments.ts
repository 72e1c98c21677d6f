// A manuscript's own comments (Word's comments.xml, ODT's office:annotation) as they are met while its text is
// walked: the paragraph each is anchored in and the words it covers. book.ts puts each on the scene that paragraph
// ends up in; the import writes them as comments by the importing writer, naming the comment's author.
import { commentLimits } from "../../../db/domain/validation-comments";

/** A reply in a comment's thread (Word's commentsExtended.xml, ODT's `loext:parent-name`), in the file's order. */
export type SourceReply = { author: string; text: string };

/**
 * A comment of the file, as the program that wrote it kept it: `replies` its thread after it, `resolved` when the
 * program marked it done.
 */
export type SourceComment = { author: string; text: string; quote: string; replies?: SourceReply[]; resolved?: boolean };

/** A comment as its file's comments part holds it: `parent` names the comment it answers (a reply has no anchor of its own). */
export type FileComment = { author: string; text: string; parent?: string; resolved?: boolean };

/** A comment on the n-th scene of the book (an index into its events). */
export type SceneComment = SourceComment & { event: number };

export class CommentAnchors {
  private readonly open = new Map<string, { parts: string[]; size: number }>();
  private readonly quotes = new Map<string, string>();
  private readonly paragraphOf = new Map<string, number>();

  /** A comment's range starts (or, without a range, the comment sits) in the paragraph `paragraph`. */
  start(id: string, paragraph: number, ranged = true) {
    if (this.paragraphOf.has(id)) return;
    this.paragraphOf.set(id, paragraph);
    if (ranged) this.open.set(id, { parts: [], size: 0 });
  }

  end(id: string) {
    const range = this.open.get(id);
    if (!range) return;
    this.quotes.set(id, range.parts.join(""));
    this.open.delete(id);
  }

  /** Text of the document as it is read: part of every open range (a hostile range cannot grow past the limit). */
  text(text: string) {
    for (const range of this.open.values()) {
      if (range.size >= commentLimits.quote) continue;
      range.parts.push(text);
      range.size += text.length;
    }
  }

  /**
   * The comments on the paragraphs they are anchored in, each reply in its thread (after the comment that starts
   * it, in the file's order; a reply to a reply joins the same thread); returns how many comments and replies were
   * placed. A thread whose first comment's anchor was never met is not returned (the caller counts it).
   */
  attach(paragraphs: { comments?: SourceComment[] }[], comments: Map<string, FileComment>): number {
    for (const id of this.open.keys()) this.end(id);
    const rootOf = (id: string) => {
      let current = id;
      // A parent chain ends at a comment with no (known) parent; a loop in a hostile file stops at the limit.
      for (let depth = 0; depth < 100; depth++) {
        const parent = comments.get(current)?.parent;
        if (parent === undefined || parent === current || !comments.has(parent)) return current;
        current = parent;
      }
      return id;
    };
    const threads = new Map<string, SourceComment>();
    let placed = 0;
    for (const [id, comment] of comments) {
      const root = rootOf(id);
      if (root !== id) continue;
      const at = this.paragraphOf.get(id);
      if (at === undefined || paragraphs.length === 0) continue;
      const paragraph = paragraphs[Math.min(at, paragraphs.length - 1)];
      const quote = (this.quotes.get(id) ?? "").replace(/\s+/g, " ").trim().slice(0, commentLimits.quote);
      const thread: SourceComment = { author: comment.author, text: comment.text, quote, ...(comment.resolved && { resolved: true }) };
      threads.set(id, thread);
      paragraph.comments = [...(paragraph.comments ?? []), thread];
      placed++;
    }
    for (const [id, comment] of comments) {
      const thread = threads.get(rootOf(id));
      if (!thread || rootOf(id) === id) continue;
      thread.replies = [...(thread.replies ?? []), { author: comment.author, text: comment.text }];
      placed++;
    }
    return placed;
  }
}

const QUOTE_IN_BODY = 200;

/** The comment as the app shows it: who wrote it in which program, on which words, and its text. */
export function commentBody(program: string, comment: SourceComment): string {
  const by = comment.author.trim() ? `${program} comment by ${comment.author.trim()}` : `${program} comment`;
  const quote = comment.quote.length > QUOTE_IN_BODY ? `${comment.quote.slice(0, QUOTE_IN_BODY).trimEnd()}…` : comment.quote;
  const head = quote ? `${by} on “${quote}”:` : `${by}:`;
  return `${head}\n${comment.text.trim()}`.slice(0, commentLimits.body);
}

/** A reply as the app shows it in its thread: who wrote it in which program, and its text. */
export function replyBody(program: string, reply: SourceReply): string {
  const by = reply.author.trim() ? `${program} reply by ${reply.author.trim()}` : `${program} reply`;
  return `${by}:\n${reply.text.trim()}`.slice(0, commentLimits.body);
}
