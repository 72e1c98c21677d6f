import { describe, expect, it } from "vitest";
import { MAX_NESTING, emphasisCost, markerDepthOf, nestingOf, plainLinesJson } from "./markdown-guard";
import { markdownToJson } from "./rich-text";

// Hostile stored text (a writer may save any 50,000 characters) is read quickly and never throws.

const textOf = (json: ReturnType<typeof markdownToJson>) => (json.content ?? []).map((p) => (p.content ?? []).map((t) => t.text).join(""));

describe("Markdown the parser cannot take is read as plain lines", () => {
  it("emphasis markers that never close: read in well under the parser's minute, characters kept", () => {
    const hostile = "(_a".repeat(16_000);
    expect(emphasisCost(hostile)).toBeGreaterThan(1e8);
    const start = performance.now();
    const json = markdownToJson(hostile);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(textOf(json)).toEqual([hostile]);
  });

  it("blocks nested thousands deep (quotes, lists) do not overflow the stack", () => {
    for (const marker of ["> ", "- ", "* ", "1. ", "> - "]) {
      const hostile = `${marker.repeat(20_000)}deep\nsecond line`;
      expect(nestingOf(markdownToJson(hostile))).toBeLessThanOrEqual(MAX_NESTING);
    }
    for (const marker of ["> ", "- "]) {
      const json = markdownToJson(`${marker.repeat(20_000)}deep\nsecond line`);
      expect(textOf(json)).toEqual([`${marker.repeat(20_000)}deep`, "second line"]);
    }
  });

  it("block depth is read in one pass before parsing: markers and indentation, not rules or emphasis", () => {
    expect(markerDepthOf("> - a\n1. b\n  - c")).toBe(2);
    expect(markerDepthOf("---\n***\n-word *em*\n2024.A year")).toBe(0);
    expect(markerDepthOf(">>> x")).toBe(3);
    const start = performance.now();
    expect(markerDepthOf(`${"> ".repeat(20_000)}deep`)).toBeGreaterThan(MAX_NESTING);
    expect(performance.now() - start).toBeLessThan(500);
  });

  it("nesting deeper than the shared doc accepts is read flat; ordinary nesting and emphasis are kept", () => {
    expect(nestingOf(markdownToJson(`${"> ".repeat(80)}x`))).toBe(3);
    const normal = markdownToJson("> quoted *and* **bold**\n\n- a\n  - b");
    expect(normal.content?.map((b) => b.type)).toEqual(["blockquote", "bulletList"]);
    expect(emphasisCost("*a* _b_ ~~c~~")).toBeLessThan(100);
  });

  it("the plain reading keeps characters as typed: escapes and entities read, blank lines dropped", () => {
    expect(textOf(plainLinesJson("a \\*b\\* &lt;c&gt; &amp; d\n\n\ne"))).toEqual(["a *b* <c> & d", "e"]);
    expect(plainLinesJson("  \n").content).toEqual([{ type: "paragraph" }]);
  });
});
