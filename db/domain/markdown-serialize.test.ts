import type { JSONContent } from "@tiptap/core";
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { jsonToMarkdown, markdownToJson, richTextSchema } from "./rich-text";

// Documents as the co-writing editor holds them, written as Markdown and read back: by the editor's own parser
// (identity) and by markdown-it, a CommonMark reader (the same blocks, text and marks).

const normal = (json: JSONContent) => richTextSchema().nodeFromJSON(json).toJSON() as JSONContent;
const text = (value: string, marks: string[] = []) =>
  marks.length ? { type: "text", text: value, marks: marks.map((type) => ({ type })) } : { type: "text", text: value };
const p = (...content: JSONContent[]) => ({ type: "paragraph", content });
const doc = (...content: JSONContent[]) => ({ type: "doc", content });
const roundTrip = (json: JSONContent) => normal(markdownToJson(jsonToMarkdown(json)));

// What writers type: letters of several scripts, digits and every character Markdown gives a meaning to.
const char = fc.constantFrom(..."aZé9مשא*_`[]<>#-=+.!&;~\\()|:'\"“”…x1/?".split(""), "[x]", "<tag>", "&amp;", "1.", "---");
const word = fc.array(char, { minLength: 1, maxLength: 6 }).map((cs) => cs.join(""));
const words = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(" "));
const segment = fc.oneof(
  { weight: 4, arbitrary: words.map((w) => text(w)) },
  { weight: 3, arbitrary: fc.tuple(words, fc.subarray(["bold", "italic", "strike"], { minLength: 1 })).map(([w, m]) => text(w, m)) },
  // Inline code without backticks or backslashes: the editor's parser then leaves the text up to the next code
  // span unformatted.
  { weight: 1, arbitrary: words.filter((w) => !/[`\\]/.test(w)).map((w) => text(w, ["code"])) },
);
const inline = (breaks: boolean) =>
  fc
    .array(fc.tuple(segment, breaks ? fc.boolean() : fc.constant(false)), { minLength: 1, maxLength: 5 })
    .map((parts) => parts.flatMap(([node, br], i) => (i === 0 ? [node] : [br ? { type: "hardBreak" } : text(" "), node])));
const paragraph = inline(true).map((content) => p(...content));
const heading = fc
  .tuple(fc.integer({ min: 1, max: 6 }), inline(false))
  .map(([level, content]) => ({ type: "heading", attrs: { level }, content }));
const codeBlock = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 4 }), fc.constantFrom(null, "js"))
  .map(([ws, language]) => ({ type: "codeBlock", attrs: { language }, content: [text(ws.join("\n"))] }));

const lists = (item: fc.Arbitrary<JSONContent>) =>
  fc.oneof(
    fc.array(item, { minLength: 1, maxLength: 3 }).map((content) => ({ type: "bulletList", content })),
    fc
      .tuple(fc.array(item, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 12 }))
      .map(([content, start]) => ({ type: "orderedList", attrs: { start, type: null }, content })),
  );
const leaf = fc.oneof(paragraph, heading, fc.constant({ type: "horizontalRule" }), codeBlock);
// A list in a list item holds one paragraph per item, without hard breaks: the editor's parser misreads a second
// paragraph there and keeps stray spaces after some hard breaks.
const innerList = lists(inline(false).map((content) => ({ type: "listItem", content: [p(...content)] })));
// A code block in a numbered item keeps one space of its indentation in the editor's parser: not generated.
const item = fc
  .tuple(paragraph, fc.option(fc.oneof(paragraph, heading, fc.constant({ type: "horizontalRule" }), innerList), { nil: undefined }))
  .map(([first, more]) => ({
    type: "listItem",
    content: more ? [first, more] : [first],
  }));
const { blocks } = fc.letrec<{ blocks: JSONContent[]; block: JSONContent }>((tie) => ({
  block: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    lists(item),
    tie("blocks").map((content) => ({ type: "blockquote", content })),
  ),
  blocks: fc.array(tie("block"), { minLength: 1, maxLength: 4 }) as fc.Arbitrary<JSONContent[]>,
}));
// Numbered lists back to back are one list to the editor's parser (two to CommonMark): not generated.
const separateLists = (content: JSONContent[]): boolean =>
  content.every((node, i) => !(node.type === "orderedList" && content[i - 1]?.type === "orderedList") && separateLists(node.content ?? []));
const documents = blocks.filter(separateLists).map((content) => normal(doc(...content)));

/** markdown-it's tokens as the editor's JSON (the same node and mark names). */
function readWithMarkdownIt(md: string): JSONContent {
  const tokens = new MarkdownIt().parse(md, {});
  const root: JSONContent = { type: "doc", content: [] };
  const stack = [root];
  const push = (node: JSONContent) => {
    const parent = stack[stack.length - 1];
    parent.content = [...(parent.content ?? []), node];
  };
  const names: Record<string, string> = {
    paragraph: "paragraph",
    heading: "heading",
    bullet_list: "bulletList",
    ordered_list: "orderedList",
    list_item: "listItem",
    blockquote: "blockquote",
  };
  for (const token of tokens) {
    const [, kind, side] = token.type.match(/^(.*)_(open|close)$/) ?? [];
    if (side === "close") stack.pop();
    else if (side === "open") {
      const node: JSONContent = { type: names[kind], content: [] };
      if (kind === "heading") node.attrs = { level: Number(token.tag.slice(1)) };
      if (kind === "ordered_list") node.attrs = { start: Number(token.attrGet("start") ?? 1), type: null };
      push(node);
      stack.push(node);
    } else if (token.type === "hr") push({ type: "horizontalRule" });
    else if (token.type === "fence") {
      push({ type: "codeBlock", attrs: { language: token.info || null }, content: [text(token.content.replace(/\n$/, ""))] });
    } else if (token.type === "inline") {
      const marks: string[] = [];
      for (const child of token.children ?? []) {
        const [, mark, end] = child.type.match(/^(strong|em|s)_(open|close)$/) ?? [];
        const markName = { strong: "bold", em: "italic", s: "strike" }[mark ?? ""];
        if (markName && end === "open") marks.push(markName);
        else if (markName) marks.splice(marks.indexOf(markName), 1);
        else if (child.type === "text" && child.content) push(text(child.content, [...marks]));
        else if (child.type === "code_inline") push(text(child.content, ["code"]));
        else if (child.type === "hardbreak") push({ type: "hardBreak" });
        else if (child.type === "softbreak") push(text("\n"));
      }
    }
  }
  return normal(root);
}

describe("the stored Markdown", () => {
  it("reads back as the document the editor showed", () => {
    fc.assert(
      fc.property(documents, (json) => {
        expect(roundTrip(json)).toEqual(json);
      }),
      { numRuns: 300 },
    );
  });

  it("reads the same in a CommonMark reader (markdown-it): blocks, text and marks", () => {
    fc.assert(
      fc.property(documents, (json) => {
        expect(readWithMarkdownIt(jsonToMarkdown(json))).toEqual(json);
      }),
      { numRuns: 300 },
    );
  });

  it("a paragraph opening with '[' whose ']:' comes after a hard break is not read as a link definition", () => {
    // fast-check's counterexample (seed -2091480127): the label of a link reference definition may span lines.
    const json = doc({
      type: "bulletList",
      content: [
        {
          type: "listItem",
          content: [p(text("[a"), { type: "hardBreak" }, { type: "text", marks: [{ type: "code" }], text: "]:a" })],
        },
      ],
    });
    expect(readWithMarkdownIt(jsonToMarkdown(json))).toEqual(json);
  });

  it("a list item of two dashes stays an item, not a rule ('- --')", () => {
    // fast-check's counterexample (seed 592101302): the bullet and the item's '--' made a thematic break.
    const json = doc({
      type: "blockquote",
      content: [
        {
          type: "bulletList",
          content: [
            { type: "listItem", content: [p(text("--"))] },
            { type: "listItem", content: [p(text("a", ["italic"]))] },
          ],
        },
      ],
    });
    expect(jsonToMarkdown(json)).toBe("> - \\--\n> - *a*");
    expect(roundTrip(json)).toEqual(normal(json));
    expect(readWithMarkdownIt(jsonToMarkdown(json))).toEqual(normal(json));
  });

  it("keeps what a writer typed literally, escaping only what would format", () => {
    const typed = "Tom & Jerry <3, snake_case, [x] marks, 5 * 3, a `tick`";
    expect(jsonToMarkdown(doc(p(text(typed))))).toBe("Tom & Jerry <3, snake_case, [x] marks, 5 * 3, a \\`tick\\`");
    expect(jsonToMarkdown(doc(p(text("a <tag> and a lone ` tick"))))).toBe("a \\<tag> and a lone ` tick");
    expect(jsonToMarkdown(doc(p(text("*not italic* and _not_ either"))))).toBe("\\*not italic\\* and \\_not\\_ either");
    expect(jsonToMarkdown(doc(p(text("# not a heading"))))).toBe("\\# not a heading");
    expect(jsonToMarkdown(doc(p(text("1. not a list"))))).toBe("1\\. not a list");
    expect(jsonToMarkdown(doc(p(text("line"), { type: "hardBreak" }, text("---"))))).toBe("line\\\n\\---");
    expect(jsonToMarkdown(doc(p(text("line"), { type: "hardBreak" }, text("==="))))).toBe("line\\\n\\===");
    expect(jsonToMarkdown(doc(p(text("> not a quote"))))).toBe("\\> not a quote");
  });

  it("writes headings as headings and bold italic as ***x***", () => {
    const heading = (value: string) => doc({ type: "heading", attrs: { level: 2 }, content: [text(value)] });
    expect(jsonToMarkdown(heading("The [x] file, chapter #1"))).toBe("## The [x] file, chapter #1");
    expect(jsonToMarkdown(heading("Act #"))).toBe("## Act \\#");
    expect(jsonToMarkdown(doc(p(text("x", ["bold", "italic"]))))).toBe("***x***");
    expect(roundTrip(doc(p(text("x", ["bold", "italic"]))))).toEqual(normal(doc(p(text("x", ["bold", "italic"])))));
  });

  it("still reads texts stored with the old escapes the same", () => {
    expect(markdownToJson("a \\[x\\] &lt;tag> \\_c\\_ \\`t\\`").content).toEqual([p(text("a [x] <tag> _c_ `t`"))]);
  });
});
