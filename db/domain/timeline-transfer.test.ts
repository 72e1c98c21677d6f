import { describe, expect, it } from "vitest";
import {
  type TimelineDocument,
  exportSlug,
  importFormatOf,
  importFormatOfContentType,
  parseCsv,
  parseCsvRecords,
  parseImport,
  parseMarkdownOutline,
  parseTimelineJson,
  renderMarkdown,
  titleFromFilename,
} from "./timeline-transfer";

const doc = (overrides: Partial<TimelineDocument> = {}): TimelineDocument => ({
  format: "storyweave-timeline",
  version: 1,
  timeline: { title: "The Long Night", description: "A siege.\n\nTold in three voices." },
  entities: [
    { kind: "character", name: "Mara", aliases: ["The Captain"], description: "Harbor pilot", color: "#6366f1" },
    { kind: "place", name: "Harbor", aliases: [], description: "", color: "#10b981" },
    { kind: "thing", name: "Lantern", aliases: [], description: "", color: "#f59e0b" },
  ],
  events: [
    {
      title: "Arrival",
      content: "The ships come in.\n# not a heading\n*Characters: not a line*",
      storyStart: "-450-03-15",
      storyEnd: "-450-03-16",
      storyLabel: "Day 3, dusk",
      entities: ["Mara", "Harbor", "Lantern"],
      pov: "Mara",
      attachments: [],
    },
    {
      title: "Undated",
      content: "",
      storyStart: null,
      storyEnd: null,
      storyLabel: "Later · much later",
      entities: [],
      pov: null,
      attachments: [],
    },
    {
      title: "Far future",
      content: "Stars.",
      storyStart: "10231-01-02T06:30",
      storyEnd: null,
      storyLabel: null,
      entities: [],
      pov: null,
      attachments: [],
    },
  ],
  ...overrides,
});

const errorOf = (result: ReturnType<typeof parseTimelineJson>) => (result.ok ? "parsed" : result.error);

describe("StoryWeave JSON", () => {
  it("reads its own export unchanged", () => {
    const original = doc();
    const result = parseTimelineJson(JSON.stringify(original, null, 2));
    expect(result).toEqual({ ok: true, document: original });
  });

  it("fills defaults (kind, color, aliases) and drops attachment metadata it cannot restore", () => {
    const result = parseTimelineJson(
      JSON.stringify({
        format: "storyweave-timeline",
        version: 1,
        timeline: { title: "  T  " },
        entities: [{ name: "Ash" }],
        events: [
          { title: "E", content: "c", entities: ["Ash"], attachments: [{ filename: "map.png", contentType: "image/png", size: 3 }] },
        ],
      }),
    );
    expect(result.ok && result.document.timeline).toEqual({ title: "T", description: null });
    expect(result.ok && result.document.entities[0]).toEqual({
      kind: "character",
      name: "Ash",
      aliases: [],
      description: "",
      color: "#6366f1",
    });
    expect(result.ok && result.document.events[0]).toMatchObject({ entities: ["Ash"], pov: null, attachments: [], storyStart: null });
  });

  it.each([
    ["not JSON", '{\n  "format": \n}', "Line 3: this is not valid JSON"],
    ["a trailing comma", '{\n  "a": [1, 2],\n  "b": "x",\n\n}', "Line 5: this is not valid JSON"],
    ["an unclosed string", '{\n  "a": "x\n}', "Line 2: this is not valid JSON"],
    ["a missing comma", '{\n  "a": 1\n  "b": 2\n}', "Line 3: this is not valid JSON"],
    ["text after the end", '{"a": 1}\n\nmore', "Line 3: this is not valid JSON"],
    ["another format", JSON.stringify({ format: "plottr" }), /^File: this is not a StoryWeave timeline/],
    ["a future version", JSON.stringify({ ...doc(), version: 2 }), "File: version 2 is not supported (expected 1)"],
    ["no title", JSON.stringify({ ...doc(), timeline: { title: " " } }), "Timeline: title is required"],
    ["a long title", JSON.stringify({ ...doc(), timeline: { title: "x".repeat(201) } }), "Timeline: title must be at most 200 characters"],
    ["events not a list", JSON.stringify({ ...doc(), events: {} }), "File: events must be a list"],
    ["an event without title", JSON.stringify({ ...doc(), events: [doc().events[0], { content: "x" }] }), "Event 2: title is required"],
    [
      "long content",
      JSON.stringify({ ...doc(), events: [{ title: "t", content: "x".repeat(50_001) }] }),
      "Event 1: content must be at most 50,000 characters",
    ],
    ["an unknown name", JSON.stringify({ ...doc(), events: [{ title: "t", entities: ["Bob"] }] }), 'Event 1: "Bob" is not in the codex'],
    [
      "a POV not linked",
      JSON.stringify({ ...doc(), events: [{ title: "t", entities: ["Harbor"], pov: "Mara" }] }),
      "Event 1: the point of view must be one of its codex entries",
    ],
    [
      "a bad date",
      JSON.stringify({ ...doc(), events: [{ title: "t", storyStart: "2024-13" }] }),
      "Event 1: start 2024-13 has a month outside 01-12",
    ],
    [
      "a reversed range",
      JSON.stringify({ ...doc(), events: [{ title: "t", storyStart: "2024-03-02", storyEnd: "2024-03-01" }] }),
      "Event 1: end must not be before start",
    ],
    [
      "a bad kind",
      JSON.stringify({ ...doc(), entities: [{ name: "X", kind: "ghost" }] }),
      "Codex entry 1: kind must be character, place or thing",
    ],
    [
      "a bad color",
      JSON.stringify({ ...doc(), entities: [{ name: "X", color: "red" }] }),
      "Codex entry 1: color must be a hex color like #a1b2c3",
    ],
    [
      "too many events",
      JSON.stringify({ ...doc(), events: Array.from({ length: 5001 }, () => ({ title: "t" })) }),
      "File: at most 5,000 events can be imported at once",
    ],
  ])("refuses %s with a message that says where", (_, text, expected) => {
    const error = errorOf(parseTimelineJson(text));
    if (typeof expected === "string") expect(error).toBe(expected);
    else expect(error).toMatch(expected);
  });
});

describe("Markdown outline", () => {
  it("export → import gives back titles, contents, order, story time and codex names and kinds", () => {
    const original = doc();
    const markdown = renderMarkdown(original);
    expect(markdown).toContain("# The Long Night\n\nA siege.\n\nTold in three voices.\n\n## Arrival\n");
    expect(markdown).toContain(
      "*Story time: -450-03-15 – -450-03-16 · Day 3, dusk*\n*Characters: Mara (POV)*\n*Places: Harbor*\n*Things: Lantern*",
    );
    // A scene's own heading goes two levels down, under its event's `##`.
    expect(markdown).toContain("\n### not a heading\n");
    const result = parseMarkdownOutline(markdown);
    if (!result.ok) throw new Error(result.error);
    expect(result.document.timeline).toEqual(original.timeline);
    expect(result.document.events).toEqual(original.events);
    // The codex section at the end brings back the whole codex.
    expect(result.document.entities).toEqual(original.entities);
  });

  it("reads a hand-written outline (CRLF, no description, empty sections)", () => {
    const result = parseImport(
      "md",
      "\uFEFF\r\n# My Novel\r\n## Opening\r\nIt was a dark night.\r\nStill dark.\r\n\r\n## Middle\r\n##Ending\r\nFin.",
    );
    if (!result.ok) throw new Error(result.error);
    expect(result.document.timeline).toEqual({ title: "My Novel", description: null });
    expect(result.document.events.map((e) => [e.title, e.content])).toEqual([
      ["Opening", "It was a dark night.\nStill dark."],
      ["Middle", ""],
      ["Ending", "Fin."],
    ]);
  });

  it("a story time that is not a date is a label", () => {
    const result = parseMarkdownOutline("# T\n## A\n*Story time: The morning after*\ntext");
    expect(result.ok && result.document.events[0]).toMatchObject({ storyStart: null, storyLabel: "The morning after", content: "text" });
  });

  it.each([
    ["no title line", "Just text\n## Event", "Line 1: the outline must start with a '# Title' line"],
    ["a heading-level-2 first", "\n\n## Event\ntext", "Line 3: the outline must start with a '# Title' line"],
    ["an empty file", "", "Line 1: the outline must start with a '# Title' line"],
    ["an event without title", "# T\n\n## One\ntext\n##   \nmore", "Line 5: title is required"],
    ["a long event title", `# T\n## ${"x".repeat(201)}`, "Line 2: title must be at most 200 characters"],
    ["a long description", `# T\n\n${"d".repeat(2001)}\n## E`, "Line 3: description must be at most 2,000 characters"],
    ["long content", `# T\n## E\n${"c".repeat(50_001)}`, "Line 2: content must be at most 50,000 characters"],
    ["a bad date", "# T\n## E\n\n*Story time: 2024-02-30*", "Line 4: start 2024-02-30 has a day that month does not have"],
    ["a reversed range", "# T\n## E\n*Story time: 2024 – 2023*", "Line 2: end must not be before start"],
  ])("refuses %s naming the line", (_, text, expected) => {
    expect(errorOf(parseMarkdownOutline(text))).toBe(expected);
  });
});

describe("CSV", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, and names the line each row starts on", () => {
    const records = parseCsvRecords('title,content\r\n"A, b","line one\r\nline ""two"""\r\nC,d\n');
    expect(records).toEqual({
      ok: true,
      records: [
        { line: 1, fields: ["title", "content"] },
        { line: 2, fields: ["A, b", 'line one\r\nline "two"'] },
        { line: 4, fields: ["C", "d"] },
      ],
    });
  });

  it("makes events, dates, labels and characters (POV marked) from a sheet with columns in any order", () => {
    const csv = [
      "Characters,Date,Title,Content,Extra",
      '"Mara (POV); Jon",2024-03-15,Arrival,"The ships, at last."',
      'Jon,2024-03-15 – 2024-03-17,Siege,"Three days.\nThree nights."',
      ",Day 3,Aftermath,",
      ",,,",
      "mara,,Epilogue,Quiet.",
    ].join("\n");
    const result = parseCsv(csv, { title: "Plot sheet" });
    if (!result.ok) throw new Error(result.error);
    expect(result.document.timeline).toEqual({ title: "Plot sheet", description: null });
    expect(result.document.entities.map((e) => [e.kind, e.name])).toEqual([
      ["character", "Mara"],
      ["character", "Jon"],
    ]);
    expect(result.document.events).toEqual([
      expect.objectContaining({
        title: "Arrival",
        content: "The ships, at last.",
        storyStart: "2024-03-15",
        entities: ["Mara", "Jon"],
        pov: "Mara",
      }),
      expect.objectContaining({ title: "Siege", content: "Three days.\nThree nights.", storyStart: "2024-03-15", storyEnd: "2024-03-17" }),
      expect.objectContaining({ title: "Aftermath", content: "", storyStart: null, storyLabel: "Day 3", entities: [] }),
      expect.objectContaining({ title: "Epilogue", entities: ["Mara"] }),
    ]);
  });

  it("reads Excel's semicolon sheets and a byte-order mark", () => {
    const result = parseImport("csv", "\uFEFFtitle;content\nA;1,5 km\n", { title: "x" });
    expect(result.ok && result.document.events.map((e) => [e.title, e.content])).toEqual([["A", "1,5 km"]]);
  });

  it.each([
    ["an empty file", "", "Line 1: the file is empty (a header row with a title column is required)"],
    ["no title column", "name_of_scene,content\nA,b", "Line 1: the header row must have a title column (title, content, date, characters)"],
    ["a row without title", "title,content\nA,b\n,orphan content\n", "Line 3: title is required"],
    ["an unclosed quote", 'title,content\nA,b\nC,"never\nclosed\n', "Line 3: a quoted field is not closed"],
    ["text after a quote", 'title,content\n"A"x,b', "Line 2: unexpected text after a closing quote"],
    ["a long title", `title\n${"t".repeat(201)}`, "Line 2: title must be at most 200 characters"],
    [
      "a date that is none",
      "title,date\nA,32/13/2024",
      `Line 2: date "32/13/2024" is not a date: use YYYY-MM-DD or the spreadsheet's date format`,
    ],
    ["a reversed range", "title,date\nA,2024 to 2020", "Line 2: end must not be before start"],
    ["a multi-line row then a bad one", 'title,content\n"A","1\n2\n3"\n,x', "Line 5: title is required"],
  ])("refuses %s naming the line", (_, text, expected) => {
    expect(errorOf(parseCsv(text, { title: "T" }))).toBe(expected);
  });
});

describe("names", () => {
  it("slugs titles for download names", () => {
    expect(exportSlug("The Long Night: Part 2")).toBe("the-long-night-part-2");
    expect(exportSlug("Café Noir — Épisode 1")).toBe("cafe-noir-episode-1");
    expect(exportSlug("東京")).toBe("timeline");
    expect(exportSlug("a".repeat(120))).toHaveLength(80);
  });

  it("knows formats by file name and content type", () => {
    expect(["a.json", "b.MD", "c.csv", "d.docx"].map(importFormatOf)).toEqual(["json", "md", "csv", null]);
    expect(
      ["application/json; charset=utf-8", "text/markdown", "text/csv;charset=UTF-8", "image/png", null].map(importFormatOfContentType),
    ).toEqual(["json", "md", "csv", null, null]);
    expect(titleFromFilename("my_plot sheet.csv")).toBe("my plot sheet");
  });
});
