// The book rows of `npm run bench` (and alone: `npm run bench:books`, which starts its own production server):
// - import: a 120,000-word Word file of 40 chapters (Heading 1 chapters, '* * *' scene breaks) through
//   POST /api/timelines/import, the dry run and the import itself, end to end over HTTP; a Scrivener 3 project of
//   200 documents (20 chapter folders of 10 texts) zipped as writers send one.
// - print: a 100,000-word book of 40 chapters to a print-ready PDF (6 × 9, EB Garamond, front matter): the API's
//   Typst source, then the same engine as the print dialog (Typst in WebAssembly) typesetting it in this process;
//   the time and the process's peak memory while it runs.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { strToU8, zipSync } from "fflate";
import { api, registerWriter } from "./bench-lib.mjs";

const require = createRequire(import.meta.url);
// Varied prose (a fixed seed, so every run reads the same book): repeated sentences would flatter both the zip
// and the typesetter's caches.
const VOCABULARY = (
  "the tide went out across flats and boats leaned over in grey mud of evening while gulls cried above harbour " +
  "wall Mara counted bells turned against stone her brother never came home from sea that winter lamp guttered " +
  "wind rose over dunes salt crusted on windows old pilot spoke softly about storms ships lost years ago letters " +
  "unopened drawer kitchen smelled bread smoke rain hammered roof slate someone knocked twice door opened slowly " +
  "she remembered promise made under lighthouse beam sweeping black water fishermen mended nets quay children ran"
).split(" ");
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const sentence = (n) => {
  const words = Array.from({ length: n }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(" ")}.`;
};
/** Exactly `words` words in sentences of 6 to 18. */
const paragraphOf = (words) => {
  const out = [];
  for (let left = Math.round(words); left > 0; ) {
    const n = Math.min(left, 6 + Math.floor(random() * 13));
    out.push(sentence(n));
    left -= n;
  }
  return out.join(" ");
};

/** A Word file as Word writes one: core properties with the title, Heading 1 chapters, scene breaks between scenes. */
async function wordBook({ chapters, words }) {
  const { Document, HeadingLevel, Packer, Paragraph, TextRun } = await import("docx");
  const perChapter = Math.round(words / chapters);
  const children = [];
  for (let c = 0; c < chapters; c++) {
    children.push(new Paragraph({ heading: HeadingLevel.HEADING_1, children: [new TextRun(`Chapter ${c + 1}`)] }));
    // Three scenes of ten paragraphs each, one word of emphasis a paragraph.
    for (let s = 0; s < 3; s++) {
      if (s > 0) children.push(new Paragraph({ children: [new TextRun("* * *")] }));
      for (let p = 0; p < 10; p++)
        children.push(
          new Paragraph({
            children: [new TextRun({ text: "Slowly ", italics: true }), new TextRun(paragraphOf(perChapter / 30 - 1))],
          }),
        );
    }
  }
  const doc = new Document({ title: "The Long Ebb", creator: "Bench", sections: [{ children }] });
  return new Uint8Array(await Packer.toArrayBuffer(doc));
}

const RTF = (body) => `{\\rtf1\\ansi\\ansicpg1252\\uc1\\deff0{\\fonttbl{\\f0\\fnil Palatino;}}\\pard\\plain \\f0\\fs24 ${body}}`;

/** A Scrivener 3 project zipped: 20 chapter folders of 10 texts (200 documents), each text 500 words with emphasis. */
function scrivenerProject({ folders, texts }) {
  const files = {};
  let binder = "";
  for (let f = 0; f < folders; f++) {
    let children = "";
    for (let t = 0; t < texts; t++) {
      const uuid = `T-${f}-${t}`;
      children += `<BinderItem UUID="${uuid}" Type="Text"><Title>Scene ${f + 1}.${t + 1}</Title></BinderItem>`;
      const paragraphs = Array.from({ length: 5 }, () => `{\\i Slowly} ${paragraphOf(99)}`).join("\\par ");
      files[`Bench Book.scriv/Files/Data/${uuid}/content.rtf`] = strToU8(RTF(paragraphs));
      files[`Bench Book.scriv/Files/Data/${uuid}/synopsis.txt`] = strToU8(`What happens in scene ${t + 1}.`);
    }
    binder += `<BinderItem UUID="F-${f}" Type="Folder"><Title>Chapter ${f + 1}</Title><Children>${children}</Children></BinderItem>`;
  }
  files["Bench Book.scriv/Bench Book.scrivx"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><ScrivenerProject><Binder><BinderItem UUID="D" Type="DraftFolder"><Title>Manuscript</Title><Children>${binder}</Children></BinderItem></Binder></ScrivenerProject>`,
  );
  return zipSync(files);
}

async function timedImport(base, token, bytes, contentType, query) {
  const start = performance.now();
  const res = await fetch(`${base}/api/timelines/import${query}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": contentType },
    body: bytes,
    signal: AbortSignal.timeout(120_000),
  });
  const body = await res.json();
  const ms = performance.now() - start;
  if (res.status !== (query.includes("dryRun") ? 200 : 201)) throw new Error(`import${query} → ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

export async function benchImport({ base }) {
  const step = (what) => console.log(`  import: ${what}`);
  // Its own writer: a free plan has three timelines.
  const writer = await registerWriter(base, "Bench Importer");
  const docx = await wordBook({ chapters: 40, words: 120_000 });
  step(`Word file ${(docx.length / 1024).toFixed(0)} KB`);
  const docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
  const dry = await timedImport(base, writer.token, docx, docxType, "?dryRun=1&filename=the-long-ebb.docx");
  step(`.docx dry run ${Math.round(dry.ms)} ms: ${JSON.stringify(dry.body.summary)}`);
  const made = await timedImport(base, writer.token, docx, docxType, "?filename=the-long-ebb.docx");
  step(`.docx import ${Math.round(made.ms)} ms`);
  const scriv = scrivenerProject({ folders: 20, texts: 10 });
  const scrivDry = await timedImport(base, writer.token, scriv, "application/zip", "?dryRun=1&filename=bench-book.zip");
  const scrivMade = await timedImport(base, writer.token, scriv, "application/zip", "?filename=bench-book.zip");
  step(`Scrivener (200 documents) import ${Math.round(scrivMade.ms)} ms: ${JSON.stringify(scrivDry.body.summary)}`);
  return {
    docx: { bytes: docx.length, summary: dry.body.summary, dryRunMs: Math.round(dry.ms), importMs: Math.round(made.ms) },
    scrivener: { documents: 200, bytes: scriv.length, summary: scrivDry.body.summary, importMs: Math.round(scrivMade.ms) },
  };
}

export async function benchPrint({ base }) {
  const step = (what) => console.log(`  print: ${what}`);
  const writer = await registerWriter(base, "Bench Printer");
  const { json: timeline } = await api(base, writer.token, "POST", "/api/timelines", { title: "A Hundred Thousand" });
  const perScene = 1250; // 40 chapters × 2 scenes × 1,250 words = 100,000 words
  for (let c = 0; c < 40; c++) {
    const { json: chapter } = await api(base, writer.token, "POST", `/api/timelines/${timeline.id}/chapters`, {
      title: `Chapter ${c + 1}`,
    });
    for (let s = 0; s < 2; s++)
      await api(base, writer.token, "POST", `/api/timelines/${timeline.id}/events`, {
        title: `Scene ${c + 1}.${s + 1}`,
        content: Array.from({ length: 10 }, () => paragraphOf(perScene / 10)).join("\n\n"),
        chapterId: chapter.id,
      });
  }
  const start = performance.now();
  const res = await fetch(
    `${base}/api/timelines/${timeline.id}/export?format=typst&trim=6x9&font=eb-garamond&size=11&front=title,copyright,toc`,
    {
      headers: { Authorization: `Bearer ${writer.token}` },
    },
  );
  if (!res.ok) throw new Error(`typst source → ${res.status} ${await res.text()}`);
  const source = await res.text();
  const sourceMs = performance.now() - start;
  const { typesetPdf } = await import("../app/features/transfer/print/typeset.ts");
  const { fontFiles } = await import("../app/features/transfer/print/font-files.ts");
  const read = (p) => readFile(require.resolve(p)).then((b) => new Uint8Array(b));
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const wasm = await read("@myriaddreamin/typst-ts-web-compiler/wasm");
  const fonts = await Promise.all(fontFiles["eb-garamond"].map(read));
  const typesetStart = performance.now();
  const pdf = await typesetPdf(source, { wasm, fonts });
  const typesetMs = performance.now() - typesetStart;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  const pages = (
    Buffer.from(pdf)
      .toString("latin1")
      .match(/\/Type\s*\/Page[^s]/g) ?? []
  ).length;
  const totalMs = performance.now() - start;
  step(
    `100,000 words → ${pages} pages, ${(pdf.length / 1024).toFixed(0)} KB in ${(totalMs / 1000).toFixed(1)} s (source ${Math.round(sourceMs)} ms, typesetting ${(typesetMs / 1000).toFixed(1)} s); peak memory ${(peak / 2 ** 20).toFixed(0)} MB (process)`,
  );
  return {
    words: 100_000,
    chapters: 40,
    pages,
    pdfBytes: pdf.length,
    sourceMs: Math.round(sourceMs),
    typesetMs: Math.round(typesetMs),
    totalMs: Math.round(totalMs),
    peakRssMb: Math.round(peak / 2 ** 20),
  };
}

// Alone: its own server on BENCH_PORT (default 4540), the two rows, results in test-results/bench-books.json.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdirSync, writeFileSync } = await import("node:fs");
  const { startAppServer } = await import("./bench-lib.mjs");
  const { base, stop } = await startAppServer(Number(process.env.BENCH_PORT ?? 4540));
  try {
    const results = { import: await benchImport({ base }), print: await benchPrint({ base }) };
    mkdirSync("test-results", { recursive: true });
    writeFileSync("test-results/bench-books.json", `${JSON.stringify(results, null, 2)}\n`);
    console.log(JSON.stringify(results, null, 2));
  } finally {
    stop();
  }
  process.exit(0);
}
