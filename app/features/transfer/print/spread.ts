// The print dialog's spread preview: two facing pages of the book, typeset by the same engine from the same
// source as the PDF, but only the start of the book (front matter and the first chapters) so an option's change
// shows in a moment. Pure functions, for the preview worker and the tests alike.

/** Where the API's source (worker/services/print-book.ts) marks a part's end and the text's start: lines of its own. */
const PART_END = "\n\n#metadata(none) <part-end>\n";
const BODY_START = "\n\n#in-body.update(true)\n";

/** The label a preview's facts carry in its source. */
export const SPREAD_FACTS = "<sw-spread>";

/** What the preview source reports of its layout: physical page numbers (1 = the first, a right-hand page). */
export type SpreadFacts = { chapters: number[]; ends: number[]; body: number };

/** The pair shown: the left-hand (even) page, none before the first page, and the right-hand (odd) one. */
export type Spread = { left: number | null; right: number };

/**
 * The book's source cut after its first `parts` parts, reporting where the text starts, where each chapter opens
 * and where each part ends. The markers are lines of their own in the API's source; the author's text is all
 * string literals on one line each, so it can never be taken for one.
 */
export function spreadSource(source: string, parts = 3): string {
  let end = -1;
  for (let i = 0; i < parts; i++) {
    const next = source.indexOf(PART_END, end + 1);
    if (next < 0) break;
    end = next;
  }
  const head = end < 0 ? source : source.slice(0, end + PART_END.length);
  const marked = head.replace(BODY_START, `${BODY_START}#metadata(none) <sw-body>\n`);
  const pages = (selector: string) => `query(${selector}).map(it => it.location().page())`;
  return `${marked}
#context [#metadata((chapters: ${pages("heading.where(level: 1, outlined: true)")}, ends: ${pages("<part-end>")}, body: ${pages("<sw-body>")}.at(0, default: 1))) ${SPREAD_FACTS}]
`;
}

/**
 * The spread to show: a chapter's opening on the right-hand page, facing the end of the chapter before it if one
 * ends there (else the first later chapter's opening, else the first chapter's: its left page is blank or front
 * matter). A book without chapter titles shows its text's first page.
 */
export function chooseSpread({ chapters, ends, body }: SpreadFacts, pageCount: number): Spread {
  const facingText = chapters.slice(1).find((page) => ends.includes(page - 1));
  let right = Math.min(facingText ?? chapters[1] ?? chapters[0] ?? body, pageCount);
  if (right % 2 === 0) right = right + 1 <= pageCount ? right + 1 : right - 1;
  right = Math.max(right, 1);
  return { left: right > 1 ? right - 1 : null, right };
}
