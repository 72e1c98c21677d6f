// The lines a book is cut by, however it comes in (a Word or ODT file without heading styles, a Markdown draft):
// a line that is only a chapter heading, and a scene break.

const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred";
const CHAPTER_LINE = new RegExp(
  `^(?:chapter\\s+(?:\\d+|[ivxlcdm]+|(?:${NUMBER_WORDS})(?:[\\s-]+(?:${NUMBER_WORDS}))*)|prologue|epilogue|interlude)(?:\\s*[:.\\-–—]\\s*.*)?$`,
  "i",
);

/** `Chapter 1`, `CHAPTER ONE`, `Chapter 12: The Road`, `Prologue`: a line that is only a chapter heading. */
export const isChapterLine = (text: string) => text.length <= 200 && CHAPTER_LINE.test(text.trim());

/** `*`, `* * *`, `#`, `~`, `---`, `❧`, `⁂`, `§`: a paragraph of symbols alone ends a scene. */
export const isSceneBreak = (text: string) => {
  const t = text.trim();
  return t.length > 0 && t.length <= 20 && /^[\p{P}\p{S}\s]+$/u.test(t) && !/^["'“”‘’«»()[\]]+$/u.test(t);
};
