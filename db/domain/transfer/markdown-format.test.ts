import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import type { TimelineDocument, TransferEvent } from "./document";
import { markdownToHtml } from "../render-text";
import { parseMarkdownOutline, renderMarkdown } from "./markdown-format";

const event = (overrides: Partial<TransferEvent>): TransferEvent => ({
  title: "Scene",
  content: "",
  storyStart: null,
  storyEnd: null,
  storyLabel: null,
  entities: [],
  pov: null,
  attachments: [],
  ...overrides,
});

const tricky = (): TimelineDocument => ({
  format: "storyweave-timeline",
  version: 1,
  timeline: { title: "The Long Night", description: "A siege.\n\n## not a heading" },
  entities: [
    { kind: "place", name: "Harbor", aliases: [], description: "", color: "#10b981" },
    {
      kind: "character",
      name: "Smith, John",
      aliases: ["Johnny", "J. Smith, the elder", "- not a field"],
      description: "Harbor pilot.\n\n### not an entry\n- Kind: thing\n  indented line",
      color: "#123abc",
    },
    { kind: "character", name: "Mara (POV)", aliases: [], description: "Her name ends like a mark.", color: "#6366f1" },
    { kind: "thing", name: "Lantern *lit*", aliases: ["Lamp"], description: "", color: "#f59e0b" },
    { kind: "character", name: "Back\\slash", aliases: [], description: "", color: "#6366f1" },
    { kind: "character", name: "Unlinked Ghost", aliases: ["Ghost"], description: "Never in a scene.", color: "#abcdef" },
    { kind: "thing", name: "Codex", aliases: [], description: "An entry named like the section.", color: "#f59e0b" },
  ],
  events: [
    event({
      title: "Arrival",
      content: "The ships come in.\n### not an entry\n*Story label: not a line*",
      storyStart: "1999",
      storyLabel: "Day 3, dusk",
      entities: ["Harbor", "Smith, John", "Mara (POV)", "Lantern *lit*", "Back\\slash"],
      pov: "Smith, John",
    }),
    event({ title: "A year", storyLabel: "1999", entities: ["Mara (POV)"], pov: "Mara (POV)" }),
    event({ title: "A year and a season", storyLabel: "1999 · summer" }),
    event({ title: "Not a date", storyLabel: "2024-02-30" }),
    event({ title: "Later", storyLabel: "Later · much later", content: "Text." }),
    event({ title: "Codex", content: "An event with the section's name.", entities: ["Codex"] }),
  ],
});

function roundTrip(doc: TimelineDocument) {
  const markdown = renderMarkdown(doc);
  const result = parseMarkdownOutline(markdown);
  if (!result.ok) throw new Error(result.error);
  return { markdown, document: result.document, again: renderMarkdown(result.document) };
}

describe("Markdown outline with its codex", () => {
  it("export → import → export gives back the whole codex, labels, POV and names with commas", () => {
    const original = tricky();
    const { markdown, document, again } = roundTrip(original);
    expect(document).toEqual(original);
    expect(again).toBe(markdown);
    expect(markdown).toContain("*Characters: Smith\\, John (POV), Mara \\(POV), Back\\\\slash*");
    expect(markdown).toContain("*Story label: 1999*");
    expect(markdown).toContain("\n## Codex\n\n### Harbor\n\n- Kind: place\n- Color: #10b981\n");
  });

  it("an event titled 'Codex' stays an event, with or without a codex after it", () => {
    const last = event({ title: "Codex", content: "- Kind: character" });
    const alone: TimelineDocument = { ...tricky(), entities: [], events: [last] };
    expect(roundTrip(alone).document).toEqual(alone);
    const withCodex: TimelineDocument = { ...tricky(), events: [last] };
    expect(roundTrip(withCodex).document).toEqual(withCodex);
  });

  it("still reads an outline exported before the codex section (names split on commas, kinds by line)", () => {
    const old = "# T\n\n## A\n\n*Story time: 2024-03-15 · dawn*\n*Characters: Mara (POV), Jon*\n*Places: Harbor*\n\nText.\n";
    const result = parseMarkdownOutline(old);
    if (!result.ok) throw new Error(result.error);
    expect(result.document.entities.map((e) => [e.kind, e.name, e.color])).toEqual([
      ["character", "Mara", "#6366f1"],
      ["character", "Jon", "#6366f1"],
      ["place", "Harbor", "#10b981"],
    ]);
    expect(result.document.events[0]).toMatchObject({ storyStart: "2024-03-15", storyLabel: "dawn", pov: "Mara", content: "Text." });
  });

  it("a hand-written last section called Codex that is not entries is an event", () => {
    const result = parseMarkdownOutline("# T\n## Codex\nSome notes.\n### Aside\nmore");
    // `### Aside` under a `##` section is the scene's own first-level heading.
    expect(result.ok && result.document.events.map((e) => [e.title, e.content])).toEqual([["Codex", "Some notes.\n# Aside\nmore"]]);
    expect(result.ok && result.document.entities).toEqual([]);
  });

  it("refuses a codex entry with a bad kind or color naming its line", () => {
    const base = "# T\n## E\n## Codex\n\n### Mara\n";
    expect(parseMarkdownOutline(`${base}- Kind: dragon\n`)).toEqual({ ok: false, error: "Line 5: kind must be character, place or thing" });
    expect(parseMarkdownOutline(`${base}- Color: red\n`)).toEqual({ ok: false, error: "Line 5: color must be a hex color like #a1b2c3" });
  });

  it("renders as headings and lists in a CommonMark reader", () => {
    const html = new MarkdownIt().render(renderMarkdown(tricky()));
    expect(html).toContain("<h1>The Long Night</h1>");
    expect(html).toContain("<h2>Arrival</h2>");
    expect(html).toContain("<em>Characters: Smith, John (POV), Mara (POV), Back\\slash</em>");
    expect(html).toContain("<h2>Codex</h2>\n<h3>Harbor</h3>\n<ul>\n<li>Kind: place</li>\n<li>Color: #10b981</li>\n</ul>");
    expect(html).toContain("<h3>Smith, John</h3>");
    expect(html).toMatch(
      /<li>\s*(<p>)?Aliases:(<\/p>)?\s*<ul>\s*<li>Johnny<\/li>\s*<li>J. Smith, the elder<\/li>\s*<li>- not a field<\/li>/,
    );
    expect(html).toContain("<h3>Lantern *lit*</h3>");
    expect(html).toContain("<h3>Unlinked Ghost</h3>");
    // Content and descriptions never become headings of the outline.
    expect(html).not.toContain("<h3>not an entry</h3>");
    expect(html).not.toContain("<h2>not a heading</h2>");
  });

  it("a scene's own headings are real headings one level under its event, and read back as they were", () => {
    const content = [
      "# The harbour",
      "",
      "Text with ##not a heading.",
      "",
      "## Night",
      "",
      "#### Deep",
      "",
      "```",
      "## code, not a heading",
      "# nor this",
      "```",
      "",
      "##hashtag",
    ].join("\n");
    const doc: TimelineDocument = { ...tricky(), entities: [], events: [event({ title: "Scene one", content }), event({ title: "Two" })] };
    const { markdown, document } = roundTrip(doc);
    expect(document).toEqual(doc);
    expect(markdown).toContain("\n### The harbour\n");
    expect(markdown).toContain("\n#### Night\n");
    expect(markdown).toContain("\n###### Deep\n");
    expect(markdown).toContain("```\n## code, not a heading\n# nor this\n```");
    const html = new MarkdownIt().render(markdown);
    expect(html).toContain("<h2>Scene one</h2>\n<h3>The harbour</h3>");
    expect(html).toContain("<h4>Night</h4>");
    expect(html).toContain("<h6>Deep</h6>");
    expect(html).toContain("<pre><code>## code, not a heading\n# nor this\n</code></pre>");
    expect(html).toContain("<p>##hashtag</p>");
    expect(html).toContain("<h2>Two</h2>");
    expect(html).not.toMatch(/\\#/);
  });

  it("a heading too deep to go down keeps level 6 (level 5 and 6 come back as 4)", () => {
    const doc: TimelineDocument = { ...tricky(), entities: [], events: [event({ content: "##### Five\n\n###### Six" })] };
    const { markdown, document } = roundTrip(doc);
    expect(markdown).toContain("###### Five\n\n###### Six");
    expect(document.events[0].content).toBe("#### Five\n\n#### Six");
  });

  it("still reads a scene heading that an older export escaped", () => {
    const result = parseMarkdownOutline("# T\n\n## A\n\n\\## The harbour\n\nText.\n");
    expect(result.ok && result.document.events[0].content).toBe("## The harbour\n\nText.");
  });

  it("chapter targets: written under the chapter's heading and read back, empty chapters too", () => {
    const doc: TimelineDocument = {
      ...tricky(),
      entities: [],
      chapters: [
        { title: "One", targetWords: 5000 },
        { title: "Two", targetWords: null },
        { title: "Empty", targetWords: 1 },
      ],
      events: [
        { ...event({ title: "Dawn", content: "*Target: 9 words*\nText." }), chapter: 0 },
        { ...event({ title: "Noon" }), chapter: 1 },
        { ...event({ title: "Loose" }), chapter: null },
      ],
    };
    const { markdown, document, again } = roundTrip(doc);
    expect(markdown).toContain("\n## One\n\n*Target: 5,000 words*\n\n### Dawn\n\n\\*Target: 9 words*\nText.\n");
    expect(markdown).toContain("\n## Two\n\n### Noon\n");
    expect(markdown).toContain("\n## Empty\n\n*Target: 1 word*\n");
    expect(document).toEqual(doc);
    expect(again).toBe(markdown);
  });

  it("refuses a chapter target that is not a whole number of words in range", () => {
    const result = parseMarkdownOutline("# T\n\n*Chapters: 1*\n\n## One\n\n*Target: 10,000,001 words*\n\n### A\n");
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^Line 7: Target must be a whole number/) });
  });

  it("with or without chapters, a scene that starts with its own heading reads back as one scene", () => {
    const opening = event({ title: "Dawn", content: "# The harbour\n\nText." });
    const plain: TimelineDocument = { ...tricky(), entities: [], events: [opening, event({ title: "Noon" })] };
    expect(roundTrip(plain).document).toEqual(plain);
    const chaptered: TimelineDocument = {
      ...plain,
      chapters: [{ title: "One", targetWords: null }],
      events: [
        { ...opening, chapter: 0 },
        { ...event({ title: "Noon" }), chapter: null },
      ],
    };
    const { markdown, document } = roundTrip(chaptered);
    expect(markdown).toContain("*Chapters: 1*\n");
    expect(markdown).toContain("\n## One\n\n### Dawn\n\n#### The harbour\n");
    expect(document).toEqual(chaptered);
  });
});

describe("a draft as writers write it", () => {
  const draft = [
    "# The Lighthouse",
    "",
    "A novel in two parts.",
    "",
    "## Chapter One",
    "",
    "### The harbour",
    "",
    "Rain on the *slates*.",
    "",
    "#### Later",
    "",
    "Night.",
    "",
    "### The keeper",
    "",
    "He waits.",
    "",
    "## Chapter Two",
    "### Home",
    "Done.",
  ].join("\n");

  it("## chapters and ### scenes become chapters and scenes without a *Chapters* line", () => {
    const result = parseMarkdownOutline(draft);
    if (!result.ok) throw new Error(result.error);
    const doc = result.document;
    expect(doc.timeline.description).toBe("A novel in two parts.");
    expect(doc.chapters?.map((c) => c.title)).toEqual(["Chapter One", "Chapter Two"]);
    expect(doc.events.map((e) => [e.title, e.chapter, e.content])).toEqual([
      ["The harbour", 0, "Rain on the *slates*.\n\n# Later\n\nNight."],
      ["The keeper", 0, "He waits."],
      ["Home", 1, "Done."],
    ]);
  });

  it("an outline without chapters stays one: text under an event's ## before its own ### heading, or an empty chapter", () => {
    const prose = parseMarkdownOutline("# Book\n\n## Dawn\n\nThe sun.\n\n### Harbour\n\nBoats.\n");
    if (!prose.ok) throw new Error(prose.error);
    expect(prose.document.chapters ?? []).toEqual([]);
    expect(prose.document.events.map((e) => e.title)).toEqual(["Dawn"]);
    const empty = parseMarkdownOutline("# Book\n\n## Dawn\n\n### Harbour\n\nBoats.\n\n## Noon\n");
    if (!empty.ok) throw new Error(empty.error);
    expect(empty.document.events.map((e) => e.title)).toEqual(["Dawn", "Noon"]);
  });

  it("chapters of prose ('## Chapter 1') are cut into scenes at scene breaks, without ### headings", () => {
    const result = parseMarkdownOutline(
      [
        "# Salt",
        "",
        "## Prologue",
        "",
        "The sea was *flat*.",
        "",
        "## Chapter 1: Landfall",
        "",
        "They rowed in.",
        "",
        "Nobody spoke.",
        "",
        "* * *",
        "",
        "At dusk the bells rang.",
        "",
        "***",
        "",
        "```",
        "---",
        "```",
        "",
        "## Chapter Two",
        "",
        "### The keeper",
        "",
        "He waits.",
        "",
        "#",
        "",
        "He sleeps.",
      ].join("\n"),
    );
    if (!result.ok) throw new Error(result.error);
    const doc = result.document;
    expect(doc.chapters?.map((c) => c.title)).toEqual(["Prologue", "Chapter 1: Landfall", "Chapter Two"]);
    expect(doc.events.map((e) => [e.title, e.chapter, e.content])).toEqual([
      ["Prologue · Scene 1", 0, "The sea was *flat*."],
      ["Chapter 1: Landfall · Scene 1", 1, "They rowed in.\n\nNobody spoke."],
      ["Chapter 1: Landfall · Scene 2", 1, "At dusk the bells rang."],
      // A break inside a code block is the code's text, not a break.
      ["Chapter 1: Landfall · Scene 3", 1, "```\n---\n```"],
      ["The keeper", 2, "He waits."],
      ["Chapter Two · Scene 2", 2, "He sleeps."],
    ]);
  });

  it("an outline whose events are not chapter lines keeps its breaks inside the event's text", () => {
    const result = parseMarkdownOutline("# Book\n\n## Dawn\n\nThe sun.\n\n* * *\n\nLater.\n\n## Noon\n\nHeat.\n");
    if (!result.ok) throw new Error(result.error);
    expect(result.document.chapters ?? []).toEqual([]);
    expect(result.document.events.map((e) => e.title)).toEqual(["Dawn", "Noon"]);
    expect(result.document.events[0].content).toContain("Later.");
  });
});

describe("what CommonMark would read as a heading", () => {
  const doc = (): TimelineDocument => ({
    ...tricky(),
    timeline: { title: "Book ##", description: "Told twice.\n===\nand again" },
    entities: [],
    chapters: [{ title: "Part #", targetWords: null }],
    events: [
      event({ title: "Act ##", chapter: 0 }),
      event({ title: "##", content: "Harbour lights\n---\nThe tide\n===\n\n---\n\nAfter the break\n\\---\nkept", chapter: 0 }),
      event({ title: "Escaped \\##", content: "  ===", chapter: 0 }),
    ],
  });

  it("a title ending in #s and a setext underline under scene text read back as they were written", () => {
    const { markdown, document, again } = roundTrip(doc());
    expect(document).toEqual(doc());
    expect(again).toBe(markdown);
    expect(markdown).toContain("# Book \\##\n");
    expect(markdown).toContain("### Act \\##\n");
    expect(markdown).toContain("Harbour lights\n\\---\nThe tide\n\\===\n\n---\n\nAfter the break\n\\\\---\nkept");
  });

  it("a CommonMark reader and the app's own renderer keep the #s and show no heading the text did not have", () => {
    const markdown = renderMarkdown(doc());
    for (const html of [new MarkdownIt().render(markdown), markdownToHtml(markdown)]) {
      expect(html).toMatch(/<h1[^>]*>Book ##<\/h1>/);
      expect(html).toMatch(/<h2[^>]*>Part #<\/h2>/);
      expect(html).toMatch(/<h3[^>]*>Act ##<\/h3>/);
      expect(html).toMatch(/<h3[^>]*>##<\/h3>/);
      expect(html).not.toMatch(/<h[1-6][^>]*>(Harbour lights|The tide|Told twice\.)/);
      expect(html).toMatch(/<hr/);
    }
  });
});

describe("Markdown outline's byline", () => {
  const withByline = (byline?: string, description: string | null = "A siege.") => ({
    ...tricky(),
    timeline: { title: "The Long Night", description, ...(byline && { byline }) },
  });

  it("a set byline stands under the title and is read back; none leaves no line", () => {
    const { markdown, document, again } = roundTrip(withByline("M. Harbour & J. Bell"));
    expect(markdown.startsWith("# The Long Night\n\n*By: M. Harbour & J. Bell*\n\nA siege.")).toBe(true);
    expect(document.timeline).toEqual({ title: "The Long Night", description: "A siege.", byline: "M. Harbour & J. Bell" });
    expect(again).toBe(markdown);
    const plain = roundTrip(withByline());
    expect(plain.markdown).not.toContain("*By: ");
    expect(plain.document.timeline).not.toHaveProperty("byline");
  });

  it("works with chapters, and a description that opens like a byline stays the description", () => {
    const chaptered = { ...withByline("Pen Name"), chapters: [{ title: "One", targetWords: null }] };
    chaptered.events = chaptered.events.map((e) => ({ ...e, chapter: 0 }));
    const { document } = roundTrip(chaptered);
    expect(document.timeline.byline).toBe("Pen Name");
    expect(document.chapters).toEqual([{ title: "One", targetWords: null }]);
    const lookalike = roundTrip(withByline(undefined, "*By: not a byline*\nThe rest."));
    expect(lookalike.document.timeline).toEqual({ title: "The Long Night", description: "*By: not a byline*\nThe rest." });
  });

  it("refuses a byline over 200 characters, naming its line", () => {
    const result = parseMarkdownOutline(`# Book\n\n*By: ${"b".repeat(201)}*\n\n## Scene\n`);
    expect(result).toEqual({ ok: false, error: "Line 3: byline must be at most 200 characters" });
  });
});
