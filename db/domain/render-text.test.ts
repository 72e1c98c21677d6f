import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stripMarks } from "./plain-text";
import { markdownToHtml } from "./render-text";

const story = [
  "# The tide",
  "Mara said **he** lied; *the tide does not lie*, ~~never~~ and `ink`.",
  "- one\n- two",
  "3. three\n4. four",
  "> a quote",
  "---",
  "مرحبا بالعالم",
  "first\\\nsecond",
].join("\n\n");

describe("stored text shown to a reader", () => {
  it("is HTML with every format and dir=auto on each block, no Markdown left", () => {
    const html = markdownToHtml(story);
    expect(html).toBe(
      [
        '<h1 dir="auto">The tide</h1>',
        '<p dir="auto">Mara said <strong>he</strong> lied; <em>the tide does not lie</em>, <s>never</s> and <code>ink</code>.</p>',
        '<ul><li dir="auto"><p dir="auto">one</p></li><li dir="auto"><p dir="auto">two</p></li></ul>',
        '<ol start="3"><li dir="auto"><p dir="auto">three</p></li><li dir="auto"><p dir="auto">four</p></li></ol>',
        '<blockquote dir="auto"><p dir="auto">a quote</p></blockquote>',
        '<hr class="scene-break">',
        '<p dir="auto">مرحبا بالعالم</p>',
        '<p dir="auto">first<br>second</p>',
      ].join(""),
    );
  });

  it("puts the text's headings below the page's own (a card titled h3 shows # as h4)", () => {
    expect(markdownToHtml("# a\n\n## b\n\n###### c", 4)).toBe('<h4 dir="auto">a</h4><h5 dir="auto">b</h5><h6 dir="auto">c</h6>');
  });

  it("escapes every text: no tag, attribute or entity from the writer reaches the page", () => {
    const html = markdownToHtml('<img src=x onerror="alert(1)"> & <script>x</script> `<b>` [a](javascript:alert(1))');
    expect(html).not.toMatch(/<(?!\/?(p|code)\b)/);
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &lt;script&gt;");
    fc.assert(
      fc.property(fc.string(), (text) => {
        const tags = markdownToHtml(text).match(/<\/?([a-z0-9]+)/g) ?? [];
        for (const tag of tags)
          expect([
            "p",
            "h1",
            "h2",
            "h3",
            "h4",
            "h5",
            "h6",
            "strong",
            "em",
            "s",
            "code",
            "pre",
            "ul",
            "ol",
            "li",
            "blockquote",
            "hr",
            "br",
          ]).toContain(tag.replace(/[</]/g, ""));
      }),
    );
  });

  it("without the renderer, the marks are dropped, never shown", () => {
    const plain = stripMarks(story);
    expect(plain).not.toMatch(/[*#>`~]|^- |^---$/m);
    expect(plain).toContain("Mara said he lied; the tide does not lie, never and ink.");
    expect(plain).toContain("⁂");
    expect(stripMarks("5 \\* 3 and \\[x\\]")).toBe("5 * 3 and [x]");
  });
});
