/**
 * Stored Markdown as plain text for a reader: block markers (headings, quotes, list bullets and numbers),
 * emphasis and code marks and backslash escapes are dropped, a scene break reads as a centred mark (version
 * history compares versions word by word on this text).
 */
export const stripMarks = (md: string) =>
  md
    .replace(/^ {0,3}(?:[-*_] *){3,}$/gm, "⁂")
    .replace(/^ *(?:(?:#{1,6}|>|[-*+]|\d{1,9}[.)])(?: +|$))+/gm, "")
    .replace(/ {2,}$|\\([!-/:-@[-`{-~])|[*_~`]+/gm, "$1");
