// The book formats of IMPORT.md (Word, ODT, Scrivener and novelWriter zips, Plottr, yWriter): each is read into
// the StoryWeave document every import builds, checked by the JSON format's own parser (the same limits and
// messages as any import), and written by importTimeline. A bad or hostile file is a BadFile: 400 (413 when it is
// too large), its message naming the kind of file, and nothing is written.
import { countWords } from "../../../db/domain/word-count";
import { type TimelineDocument, parseTimelineJson, titleFromFilename } from "../../../db/domain/timeline-transfer";
import { BOOK_MAX_BYTES, type ImportSummary } from "../../../db/domain/transfer/book-formats";
import type { ImportedComment } from "../transfer";
import { bookFromParagraphs } from "./book";
import { commentBody, replyBody } from "./comments";
import { readDocx } from "./docx";
import { readOdt } from "./odt";
import { readNovelWriter } from "./novelwriter";
import { readScrivener } from "./scrivener";
import { readYw7 } from "./yw7";
import { isPlottr, readPlottr } from "./plottr";
import { BadFile, openZip } from "./zip-guard";

/** The import's body limit for these formats (the others keep the API's 1 MB). */
export const BOOK_BODY_LIMIT = BOOK_MAX_BYTES;

export type BookFormat = "docx" | "odt" | "zip" | "xml";

const BOOK_TYPES: Record<string, BookFormat> = {
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
  "application/vnd.oasis.opendocument.text": "odt",
  "application/zip": "zip",
  "application/x-zip-compressed": "zip",
  "application/xml": "xml",
  "text/xml": "xml",
};

/** The book format a request's Content-Type names (parameters ignored), or null for today's formats. */
export function bookFormatOfContentType(contentType: string | null | undefined): BookFormat | null {
  return BOOK_TYPES[(contentType ?? "").split(";")[0].trim().toLowerCase()] ?? null;
}

const KIND_NAME: Record<BookFormat, string> = {
  docx: "This Word document",
  odt: "This OpenDocument text",
  zip: "This project archive",
  xml: "This yWriter project",
};

/**
 * `seriesTitle`: the file's own name for its books together (Plottr's series), when it has one. `comments`: the
 * file's own comments on the first book's scenes (Word, ODT).
 */
export type BookImport =
  | { ok: true; documents: TimelineDocument[]; skipped: string[]; seriesTitle?: string; comments: ImportedComment[] }
  | { ok: false; status: 400 | 413; error: string };

/** What a dry run answers: what the documents would create, and what the file holds that is left out. */
export function summarize(documents: TimelineDocument[], skipped: string[]): ImportSummary {
  const events = documents.flatMap((d) => d.events);
  return {
    title: documents.map((d) => d.timeline.title).join(" · "),
    chapters: documents.reduce((n, d) => n + (d.chapters?.length ?? 0), 0),
    scenes: events.length,
    words: events.reduce((n, e) => n + countWords(e.content), 0),
    codex: documents.reduce((n, d) => n + d.entities.length, 0),
    plotlines: documents.reduce((n, d) => n + (d.plotlines?.length ?? 0), 0),
    skipped,
  };
}

type BookRead = { documents: TimelineDocument[]; skipped: string[]; seriesTitle?: string; comments?: ImportedComment[] };

function readBook(format: BookFormat, bytes: Uint8Array, fallbackTitle: string): BookRead {
  if (format === "docx" || format === "odt") {
    const zip = openZip(bytes);
    const word = format === "docx" ? readDocx(zip) : readOdt(zip);
    const { document, skipped, comments } = bookFromParagraphs(word.paragraphs, word.title ?? fallbackTitle);
    if (word.unplaced > 0) skipped.push(`${word.unplaced} comment${word.unplaced === 1 ? "" : "s"} not anchored in the text`);
    const program = format === "docx" ? "Word" : "OpenDocument";
    return {
      documents: [document],
      skipped,
      comments: comments.map((c) => ({
        event: c.event,
        body: commentBody(program, c),
        quote: c.quote || null,
        ...(c.replies && { replies: c.replies.map((r) => replyBody(program, r)) }),
        ...(c.resolved && { resolved: true }),
      })),
    };
  }
  if (format === "zip") {
    const zip = openZip(bytes);
    const project = readScrivener(zip) ?? readNovelWriter(zip);
    if (project) return project;
    // A manuscript is a zip too: a .docx or .odt sent under its archive's type is named, not called broken.
    if (zip.entries.has("word/document.xml")) throw new BadFile("it is a Word document: import it as a .docx file");
    if (zip.entries.has("content.xml")) throw new BadFile("it is an OpenDocument file: import it as an .odt file");
    throw new BadFile(
      "it holds neither a Scrivener project (.scrivx) nor a novelWriter project (nwProject.nwx): zip the .scriv folder, or the folder holding nwProject.nwx, and import that zip",
    );
  }
  if (format === "xml") {
    if (
      bytes.length > 0 &&
      bytes[0] !== 0x3c &&
      bytes[0] !== 0xef &&
      bytes[0] !== 0x20 &&
      bytes[0] !== 0x0a &&
      bytes[0] !== 0x0d &&
      bytes[0] !== 0x09
    )
      throw new BadFile("it is not XML (the file's contents do not match its type)");
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      throw new BadFile("it is not UTF-8 XML");
    }
    return readYw7(text, fallbackTitle);
  }
  throw new BadFile("this kind of file cannot be imported yet");
}

/**
 * A JSON body that is a Plottr file (told apart from StoryWeave's JSON by its keys) as its books, or null when it
 * is not one (today's JSON import reads it then).
 */
export function parsePlottrFile(input: ArrayBuffer, filename?: string): BookImport | null {
  let root: unknown;
  try {
    root = JSON.parse(new TextDecoder().decode(input).replace(/^\uFEFF/, ""));
  } catch {
    return null;
  }
  if (!isPlottr(root)) return null;
  return checked("This Plottr file", () => readPlottr(root, titleFromFilename(filename ?? "")));
}

/** The file as one or more timeline documents (several: a series, in book order). */
export function parseBookFile(format: BookFormat, input: ArrayBuffer | Uint8Array, filename?: string): BookImport {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  return checked(KIND_NAME[format], () => readBook(format, bytes, titleFromFilename(filename ?? "")));
}

/** A reader's documents checked as any import's, or its refusal as a message naming the kind of file. */
function checked(what: string, readFile: () => BookRead): BookImport {
  let read: BookRead;
  try {
    read = readFile();
  } catch (error) {
    if (error instanceof BadFile)
      return { ok: false, status: error.tooLarge ? 413 : 400, error: `${what} could not be read: ${error.message}` };
    // A RangeError or TypeError from a file no check foresaw is still the file's fault, never a 5xx. It is logged
    // (its kind and message, never the file's content) so the reader's blind spot can be found and closed.
    const problem = error instanceof Error ? `${error.name}: ${error.message.slice(0, 200)}` : typeof error;
    console.error(`[import] ${what}: unforeseen reader error: ${problem}`);
    return { ok: false, status: 400, error: `${what} could not be read: it is damaged or not what its type says` };
  }
  if (read.documents.length === 0) return { ok: false, status: 400, error: `${what} could not be read: it holds no book` };
  if (read.documents.every((doc) => doc.events.length === 0))
    return { ok: false, status: 400, error: `${what} could not be imported: no chapter with text was found in it` };
  const documents: TimelineDocument[] = [];
  for (const doc of read.documents) {
    const result = parseTimelineJson(JSON.stringify(doc));
    if (!result.ok) return { ok: false, status: 400, error: `${what} could not be imported: ${result.error}` };
    documents.push(result.document);
  }
  return {
    ok: true,
    documents,
    skipped: read.skipped,
    comments: read.comments ?? [],
    ...(read.seriesTitle && { seriesTitle: read.seriesTitle }),
  };
}
