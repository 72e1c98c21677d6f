// The cards' first paint without the editor's parser: a text with nothing Markdown would read as formatting
// (no marks, block markers, escapes, entities, HTML or links) is its paragraphs, split at blank lines.
// `plainTextHtml` answers null for anything else, and the caller renders with the full renderer
// (render-text.ts), which gives the same HTML for plain text (render-text.test.ts checks they agree).

// Characters that can start formatting anywhere in a line, and lines that open a block.
const INLINE = /[\\*_~`#>[\]!<&|]|:\/\/|www\.|@|^\s|\s$/;
const BLOCK = /^(?:[-+=]|\d{1,9}[.)])/;

const escapeText = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The HTML of a text that has no Markdown in it, or null when it may have. */
export function plainTextHtml(text: string): string | null {
  if (text.trim() === "") return "";
  const paragraphs = text.split("\n\n");
  for (const paragraph of paragraphs) {
    if (paragraph === "" || paragraph.includes("\n") || INLINE.test(paragraph) || BLOCK.test(paragraph)) return null;
  }
  return paragraphs.map((p) => `<p dir="auto">${escapeText(p)}</p>`).join("");
}
