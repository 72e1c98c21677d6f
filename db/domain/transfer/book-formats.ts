// The book formats of IMPORT.md as the import dialog and the API name them: a file's extension → the
// Content-Type it is sent with. The server reads them (worker/services/import); the dialog shows the server's dry
// run of one before anything is written.

export const bookContentType = {
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  odt: "application/vnd.oasis.opendocument.text",
  zip: "application/zip",
  pltr: "application/json",
  yw7: "application/xml",
} as const;
export type BookFileFormat = keyof typeof bookContentType;

/** A book's file may be this large (today's other imports: 1 MB). */
export const BOOK_MAX_BYTES = 20 * 1024 * 1024;

/** The file picker's extensions for books. */
export const BOOK_ACCEPT = ".docx,.odt,.zip,.pltr,.yw7";

/** The book format of a chosen file, by its name. */
export function bookFormatOf(filename: string): BookFileFormat | null {
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  return ext && Object.hasOwn(bookContentType, ext) ? (ext as BookFileFormat) : null;
}

/** What a dry run (`?dryRun=1`) answers: what the import would create and what it leaves out. */
export type ImportSummary = {
  title: string;
  chapters: number;
  scenes: number;
  words: number;
  codex: number;
  plotlines: number;
  skipped: string[];
};
