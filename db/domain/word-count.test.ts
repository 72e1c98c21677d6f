import { describe, expect, it } from "vitest";
import { countWords } from "./word-count";

describe("countWords", () => {
  it.each([
    ["", 0],
    ["   \n ", 0],
    ["The ships come in.", 4],
    ["**Bold** and *quiet*.\n\n---\n\n## A heading", 5],
    ["don't stop — it's mid-air, 2024", 5],
    ["东京は晴れ", 5],
    ["Mara 在港口 waited", 5],
    ["Café naïve résumé", 3],
  ])("%j has %i words", (text, words) => {
    expect(countWords(text)).toBe(words);
  });
});
