import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainTextHtml } from "./plain-html";
import { markdownToHtml } from "./render-text";

// Characters prose is made of, with every one Markdown gives a meaning to, spaces and line breaks.
const chars = "abcXYZ019 .,;:'\"?()/%$-—–…’“”=+\n\n\n\t\\*_~`#>[]!<&|@ewww".split("");
const text = fc.array(fc.constantFrom(...chars), { maxLength: 60 }).map((a) => a.join(""));

describe("a card's text without the editor's parser", () => {
  it("is the full renderer's HTML whenever it answers, for any text", () => {
    fc.assert(
      fc.property(text, (t) => {
        const plain = plainTextHtml(t);
        if (plain !== null) expect(plain).toBe(markdownToHtml(t, 4));
      }),
      { numRuns: 20000, seed: 26 },
    );
  });

  it("answers for prose, with its paragraphs and punctuation", () => {
    const prose = 'Scene 1: the lamp gutters and the tide turns. "Well-known," she said; 3 o\'clock (50%) — done…\n\nNext day.';
    expect(plainTextHtml(prose)).toBe(markdownToHtml(prose, 4));
    expect(plainTextHtml(prose)).toContain("&quot;Well-known,&quot;");
  });

  it("leaves formatting, block markers, links and HTML to the renderer", () => {
    for (const t of [
      "**bold**",
      "# Title",
      "- item",
      "1. one",
      "> quote",
      "a\nb",
      "see https://x.io",
      "<b>x</b>",
      "a & b",
      "    code",
      "---",
    ]) {
      expect(plainTextHtml(t)).toBeNull();
    }
  });
});
