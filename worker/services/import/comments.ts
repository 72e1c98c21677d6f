// A manuscript's own comments (Word's comments.xml, ODT's office:annotation) as they are met while its text is
// walked: the paragraph each is anchored in and the words it covers. book.ts puts each on the scene that paragraph
// ends up in; the import writes them as comments by the importing writer, naming the comment's author.
import { commentLimits } from "../../../db/domain/validation-comments";

/** A comment of the file, as the program that wrote it kept it. */
export type SourceComment = { author: string; text: string; quote: string };

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
   * The comments on the paragraphs they are anchored in; a comment whose anchor was never met is not returned
   * (it is counted by the caller).
   */
  attach(paragraphs: { comments?: SourceComment[] }[], comments: Map<string, Omit<SourceComment, "quote">>): number {
    for (const id of this.open.keys()) this.end(id);
    let placed = 0;
    for (const [id, comment] of comments) {
      const at = this.paragraphOf.get(id);
      if (at === undefined || paragraphs.length === 0) continue;
      const paragraph = paragraphs[Math.min(at, paragraphs.length - 1)];
      const quote = (this.quotes.get(id) ?? "").replace(/\s+/g, " ").trim().slice(0, commentLimits.quote);
      paragraph.comments = [...(paragraph.comments ?? []), { ...comment, quote }];
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
