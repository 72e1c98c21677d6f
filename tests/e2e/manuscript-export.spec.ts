import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { APIRequestContext } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { type TestUser, expect, expectNoSeriousA11yViolations, openTimeline, test } from "./fixtures";

// The book exports as a writer gets them from the Export menu, and every EPUB checked by epubcheck (Debian's
// package runs its jar with Java) where it is installed: 0 errors and 0 warnings, or the test fails.

const EPUBCHECK_JAR = "/usr/share/java/epubcheck.jar";
// The JVM only compiles quickly (C1), with one GC thread: a short run does half the CPU work, which counts on a
// machine busy with other tests.
const JAVA = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", EPUBCHECK_JAR];
// `--version` exits with 1 (no file given), so the banner says whether it ran.
const hasEpubcheck = /EPUBCheck v\d/.test(spawnSync("java", [...JAVA, "--version"], { encoding: "utf8" }).stdout ?? "");

/**
 * epubcheck's report on a file: its summary line, and the messages when there are any. Not blocking the test's
 * process (the browser and the test's timeout go on meanwhile).
 */
async function epubcheck(bytes: Buffer) {
  const dir = await mkdtemp(join(tmpdir(), "epubcheck-"));
  try {
    const file = join(dir, "book.epub");
    await writeFile(file, bytes);
    return await new Promise<string>((resolve) => {
      execFile("java", [...JAVA, file], { encoding: "utf8", timeout: 180_000 }, (error, stdout, stderr) =>
        resolve(`${stdout}\n${stderr}${error?.killed ? "\n(epubcheck killed after 180 s)" : ""}`),
      );
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function download(request: APIRequestContext, user: TestUser, path: string) {
  const res = await request.get(path, { headers: { Authorization: `Bearer ${user.token}` } });
  expect(res.status(), await res.text()).toBe(200);
  return res.body();
}

test.describe("Manuscript and EPUB", () => {
  test.use({ writerOptions: { name: "Mara Quill Okafor", premium: true }, timelineTitle: `Salt <&> "Tides" 'Deep'` });
  test("the Export menu gives the manuscript and the EPUB; every EPUB passes epubcheck", async ({
    page,
    request,
    writer,
    timeline: hostile,
  }) => {
    test.setTimeout(120_000);
    for (const [title, content] of [
      ["عربي", "قال: «مرحبا بالعالم»!\n\n---\n\nFirst line  \nsecond line"],
      ["日本", "吾輩は猫である。名前はまだ無い。\n\n## 見出し\n\n1. one\n2. two"],
      ["Bold", "**Bold** and *italic* & <tag>."],
    ]) {
      await writer.api("POST", `/api/timelines/${hostile.id}/events`, { title, content });
    }

    await openTimeline(page, hostile.id);
    await page.getByRole("button", { name: "Export" }).click();
    await expect(page.getByRole("menuitem", { name: "Manuscript (.docx)" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "EPUB" })).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Word without planning notes" })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    const [manuscript] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: "Manuscript (.docx)" }).click(),
    ]);
    expect(manuscript.suggestedFilename()).toBe("salt-tides-deep-manuscript.docx");
    const docx = unzipSync(new Uint8Array(await readFile(await manuscript.path())));
    expect(strFromU8(docx["word/styles.xml"])).toContain('w:ascii="Times New Roman"');
    const document = strFromU8(docx["word/document.xml"]);
    expect(document).toContain("吾輩は猫である。");
    expect(document).not.toContain("日本");

    await page.getByRole("button", { name: "Export" }).click();
    const [epub] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "EPUB" }).click()]);
    expect(epub.suggestedFilename()).toBe("salt-tides-deep.epub");
    const books: [string, Buffer][] = [["Arabic, Japanese and <&>\"' in the title", await readFile(await epub.path())]];

    // No chapters, and a book with no text yet.
    const plain = await writer.api<{ id: number }>("POST", "/api/timelines", { title: "Short Things" });
    for (const content of ["First.", "Second.", "Third."]) {
      await writer.api("POST", `/api/timelines/${plain.id}/events`, { title: content, content });
    }
    books.push(["no chapters", await download(request, writer, `/api/timelines/${plain.id}/export?format=epub`)]);
    const empty = await writer.api<{ id: number }>("POST", "/api/timelines", { title: "Nothing Yet" });
    books.push(["no scenes", await download(request, writer, `/api/timelines/${empty.id}/export?format=epub`)]);

    // Three chapters, made through the chapters API where this build has it.
    const novel = await writer.api<{ id: number }>("POST", "/api/timelines", { title: "The Long Night" });
    const auth = { Authorization: `Bearer ${writer.token}` };
    const probe = await request.post(`/api/timelines/${novel.id}/chapters`, { headers: auth, data: { title: "One" } });
    if (probe.ok()) {
      const chapterIds = [(await probe.json()).id as number];
      for (const title of ["Two", "Three"]) {
        chapterIds.push((await writer.api<{ id: number }>("POST", `/api/timelines/${novel.id}/chapters`, { title })).id);
      }
      for (const [i, chapterId] of chapterIds.entries()) {
        const event = await writer.api<{ id: number }>("POST", `/api/timelines/${novel.id}/events`, {
          title: `Scene ${i}`,
          content: `Scene ${i} of the book.`,
        });
        await writer.api("PATCH", `/api/events/${event.id}`, { chapterId });
      }
      books.push(["three chapters", await download(request, writer, `/api/timelines/${novel.id}/export?format=epub`)]);
    }

    for (const [name, bytes] of books) expect(bytes.subarray(30, 38).toString(), name).toBe("mimetype");
    if (hasEpubcheck) {
      // The checks are a step of their own, not the browser's: a JVM per book takes 3-4 s of CPU, and on a machine
      // loaded by other tests the four together took more than the two minutes the rest of the test is allowed.
      // They get two more minutes of their own, and run two at a time (the machine's two cores).
      test.setTimeout(test.info().timeout + 120_000);
      const reports: string[] = [];
      for (let i = 0; i < books.length; i += 2) {
        reports.push(...(await Promise.all(books.slice(i, i + 2).map(([, bytes]) => epubcheck(bytes)))));
      }
      for (const [i, [name]] of books.entries()) expect(reports[i], name).toContain("Messages: 0 fatals / 0 errors / 0 warnings");
    }
    if (!hasEpubcheck) {
      test
        .info()
        .annotations.push({ type: "skipped", description: "epubcheck is not installed here: the EPUBs were checked for structure only" });
    }
  });
});
