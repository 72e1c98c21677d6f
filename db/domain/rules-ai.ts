import { entityLimits } from "./rules";

// What the assistant's answers become: a suggested event, a codex character, a rewrite tone.

/**
 * Applying a plot suggestion: the text is split into non-empty lines; the first line,
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

/**
 * The character's name in a Writer's Unblock profile: a 'Name: …' line when there is one, else the first line
 * (headings and bold marks stripped). Empty when nothing usable is found.
 */
export function characterNameFrom(profile: string): string {
  const clean = (line: string) =>
    line
      .replace(/^[#>*\-\s]+/, "")
      .replace(/\*\*|__|`/g, "")
      .trim();
  const lines = profile.split(/\r?\n/).map(clean).filter(Boolean);
  const labelled = lines.map((line) => /^name\s*[:\-–—]\s*(.+)$/i.exec(line)?.[1]).find(Boolean);
  const name = (labelled ?? lines[0] ?? "")
    .replace(/[,;(].*$/, "")
    .trim()
    .replace(/^["“']+|["”']+$/g, "")
    .trim();
  return name.slice(0, entityLimits.name);
}

/** Rewrite tone presets for the event editor's Rewrite on a selection. */
export const TRANSFORM_TONES = ["Darker", "Lighter", "More formal", "More casual", "Tenser"] as const;
