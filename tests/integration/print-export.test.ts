import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { chooseSpread, spreadSource } from "../../app/features/transfer/print/spread";
import worker from "../../worker/index";
import { ORIGIN, createEvent, createTimeline, registerUser, shareWith } from "./helpers";

// The print-ready book's API: the Typst source (format=typst) the app typesets into the PDF, its options, and the
// access. The PDF itself is typeset and checked with poppler in tests/e2e/print-pdf.spec.ts.

let owner: Awaited<ReturnType<typeof registerUser>>;
let coAuthor: Awaited<ReturnType<typeof registerUser>>;
let viewer: Awaited<ReturnType<typeof registerUser>>;
let stranger: Awaited<ReturnType<typeof registerUser>>;
let bookId: number;

async function get(path: string, token?: string) {
  const headers = new Headers();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(ORIGIN + path, { headers }) as Request<unknown, IncomingRequestCfProperties>, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

beforeAll(async () => {
  owner = await registerUser({ name: "Mara Quill Okafor" });
  [coAuthor, viewer, stranger] = await Promise.all([registerUser(), registerUser(), registerUser()]);
  const tl = await createTimeline(owner.token, { title: 'Salt "Tides" #deep' });
  bookId = tl.id;
  await shareWith(bookId, owner.user.id, coAuthor.user.id, "collaborator");
  await shareWith(bookId, owner.user.id, viewer.user.id, "viewer");
  const chapter = await env.DB.prepare("INSERT INTO chapters (timeline_id, title, position) VALUES (?, 'The Harbour', 0) RETURNING id")
    .bind(bookId)
    .first<{ id: number }>();
  for (const content of ["Waves *rose* over $the [wall] #set page(width: 1in)\n\nA second paragraph.", "Then quiet \\ came."]) {
    const event = await createEvent(owner.token, bookId, { title: "Planning title", content, notes: "SECRET NOTE" });
    await env.DB.prepare("UPDATE events SET chapter_id = ? WHERE id = ?").bind(chapter!.id, event.id).run();
  }
});

const path = (query: string) => `/api/timelines/${bookId}/export?${query}`;

describe("Print-ready book", () => {
  it("gives the Typst source with the chosen trim, face, size and front matter, the text as literals", async () => {
    const res = await get(
      path("format=typst&trim=5.5x8.5&font=crimson-pro&size=10.5&front=title,dedication,toc&dedication=For%20Ada"),
      owner.token,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/attachment; filename=".+-print\.typ"/);
    const source = await res.text();
    expect(source).toContain("width: 5.5in, height: 8.5in");
    // The chosen face first; the script faces (Arabic, Hebrew, Chinese/Japanese) catch what it lacks.
    expect(source).toContain('font: ("Crimson Pro", "Noto Naskh Arabic", "Noto Serif Hebrew", "Noto Serif SC"), size: 10.5pt');
    expect(source).toContain('#let book-author = "Mara Quill Okafor"');
    expect(source).toContain('"For Ada"');
    expect(source).toContain("#outline(");
    expect(source).not.toContain("Copyright ©");
    // Everything the author typed is a string literal: markup characters cannot change the layout.
    expect(source).toContain('#drop-cap("W")[#"aves "#emph("rose")#" over $the [wall] #set page(width: 1in)"]');
    // The paragraph after it is indented as any second paragraph is (the drop cap's paragraph is laid out as a block).
    expect(source).toContain('#indented[#"A second paragraph."]');
    // The sunk initial's Typst code (droplet, MIT) travels in the source, with its licence.
    expect(source).toContain("#let dropcap(");
    expect(source).toContain("Copyright (c) 2023 Eric Biedert");
    // After a scene break the paragraph is flush left, with no second initial letter in the chapter.
    expect(source).toContain('#opening[#"Then quiet \\\\ came."]');
    expect(source).not.toContain('#drop-cap("T")');
    expect(
      (await (await get(path("format=typst&dropcaps=0"), owner.token)).text()).includes("#let dropcap("),
      "no drop caps, no droplet",
    ).toBe(false);
    expect(source).toContain('#let book-title = "Salt \\"Tides\\" #deep"');
    expect(source).not.toContain("SECRET NOTE");
    expect(source).not.toContain("Planning title");
  });

  it("says the PDF is typeset in the browser, after checking the options and the access", async () => {
    const res = await get(path("format=pdf&trim=6x9"), owner.token);
    expect(res.status).toBe(501);
    expect(((await res.json()) as { error: string }).error).toMatch(/typeset in the browser/);
    expect((await get(path("format=pdf&trim=7x10"), owner.token)).status).toBe(400);
    expect((await get(path("format=pdf"), stranger.token)).status).toBe(404);
  });

  it("refuses bad options with a 400 naming them", async () => {
    const cases: [string, string][] = [
      ["trim=7x10", "Trim must be one of 5x8, 5.25x8, 5.5x8.5, 6x9, A5"],
      ["font=comic-sans", "Font must be one of eb-garamond, crimson-pro, libre-baskerville"],
      ["size=40", "Size must be a number of points from 9 to 14, in half points"],
      ["size=10.3", "Size must be a number of points from 9 to 14, in half points"],
      ["size=NaN", "Size must be a number of points from 9 to 14, in half points"],
      ["front=title,index", "Front matter may hold title, copyright, dedication, toc"],
      ["ornament=skull", "Ornament must be one of dinkus, dots, blank"],
      ["dropcaps=yes", "Dropcaps must be 0 or 1"],
      [`dedication=${"x".repeat(301)}`, "The dedication must be at most 300 characters"],
      ["trim=6x9&trim=5x8", "Give trim once"],
    ];
    for (const [query, error] of cases) {
      const res = await get(path(`format=typst&${query}`), owner.token);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toEqual({ error });
    }
  });

  it("the same access as the other exports: co-authors and viewers, not strangers or forged ids", async () => {
    for (const token of [coAuthor.token, viewer.token]) expect((await get(path("format=typst"), token)).status).toBe(200);
    expect((await get(path("format=typst"), stranger.token)).status).toBe(404);
    expect((await get(path("format=typst"))).status).toBe(401);
    expect((await get("/api/timelines/99999999/export?format=typst", owner.token)).status).toBe(404);
    expect((await get("/api/timelines/1e9999/export?format=typst", owner.token)).status).toBe(404);
  });

  it("the dialog's spread preview typesets the book's first three chapters only; text that looks like a marker cannot cut it", async () => {
    const tl = await createTimeline(owner.token, { title: "Four Tides" });
    for (const [i, title] of ["One", "Two", "Three", "Four"].entries()) {
      const chapter = await env.DB.prepare("INSERT INTO chapters (timeline_id, title, position) VALUES (?, ?, ?) RETURNING id")
        .bind(tl.id, title, i)
        .first<{ id: number }>();
      // The author's text may hold the very lines the preview looks for: it stays a string literal.
      const content = `Text of ${title}.\n\n#metadata(none) <part-end>\n\n#in-body.update(true)`;
      const event = await createEvent(owner.token, tl.id, { title, content });
      await env.DB.prepare("UPDATE events SET chapter_id = ? WHERE id = ?").bind(chapter!.id, event.id).run();
    }
    const source = await (await get(`/api/timelines/${tl.id}/export?format=typst`, owner.token)).text();
    const preview = spreadSource(source);
    for (const title of ["One", "Two", "Three"]) expect(preview).toContain(`#heading(level: 1, "${title}")`);
    expect(preview).not.toContain('#heading(level: 1, "Four")');
    expect(preview).toContain("#in-body.update(true)\n#metadata(none) <sw-body>");
    expect(preview.match(/#metadata\(none\) <sw-body>/g)).toHaveLength(1);
    expect(preview).toMatch(/#context \[#metadata\(\(chapters: .*\)\) <sw-spread>\]\n$/);
    // A chapter opening facing the end of the one before is preferred; else the second chapter's, else the first's.
    expect(chooseSpread({ chapters: [5, 7, 9], ends: [5, 8, 10], body: 5 }, 10)).toEqual({ left: 8, right: 9 });
    expect(chooseSpread({ chapters: [5, 7], ends: [5, 7], body: 5 }, 8)).toEqual({ left: 6, right: 7 });
    expect(chooseSpread({ chapters: [1], ends: [3], body: 1 }, 3)).toEqual({ left: null, right: 1 });
    expect(chooseSpread({ chapters: [], ends: [4], body: 3 }, 4)).toEqual({ left: 2, right: 3 });
  });
});
