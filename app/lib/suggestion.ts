/**
 * SPEC.md §4, applying a plot suggestion: the text is split into non-empty lines; the first line,
 * without leading # signs, bold markers and quotes, is the title (47 characters plus an ellipsis
 * when longer than 50); the other lines are the content, or 'No content provided'. Empty → null.
 */
export const SUGGESTED_TITLE_MAX = 50;

export function parseSuggestion(text: string): { title: string; content: string } | null {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return null;
  const title = lines[0]
    .replace(/^#+\s*/, "")
    .replace(/\*\*|__/g, "")
    .replace(/["“”]/g, "")
    .replace(/^['‘’]+|['‘’]+$/g, "")
    .trim();
  const content = lines.slice(1).join("\n") || "No content provided";
  const shortTitle = title.length > SUGGESTED_TITLE_MAX ? `${title.slice(0, SUGGESTED_TITLE_MAX - 3)}...` : title;
  return { title: shortTitle || "Untitled suggestion", content };
}
