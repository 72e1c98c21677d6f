import { Upload } from "lucide-react";
import { useId, useState } from "react";
import { useNavigate } from "react-router";
import { limits } from "../../../db/domain/rules";
import {
  type DateOrder,
  IMPORT_ACCEPT,
  type ImportFormat,
  type ImportResult,
  type TimelineDocument,
  UNSUPPORTED_IMPORT,
  formatStoryTime,
  importContentType,
  importFormatOf,
  parseImportFile,
  titleFromFilename,
} from "../../../db/domain/timeline-transfer";
import { BOOK_ACCEPT, BOOK_MAX_BYTES, type ImportSummary, bookContentType, bookFormatOf } from "../../../db/domain/transfer/book-formats";
import { OnlineOnlyTextLink, useOfflineLock } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { useMutation } from "~/lib/use-mutation";
import { ApiError, client, errorMessage, unwrap } from "~/lib/client";
import { fetchWithUploadProgress } from "~/lib/upload-fetch";

type Chosen = { name: string; format: ImportFormat; bytes: ArrayBuffer; document: TimelineDocument; dates: ImportResult["dates"] };
/** The timeline the dialog was opened from, when the writer may add to it. */
export type ImportTarget = { id: number; title: string; shareCode?: string | null };
type Send = { file: Chosen; title: string; dateOrder: DateOrder | null; into: ImportTarget | null };
/** A book's file (Word, ODT, a project zip, Plottr, yWriter): read by the server, shown by its dry run. */
type Book = { name: string; contentType: string; bytes: ArrayBuffer; summary: ImportSummary };

const PREVIEW_EVENTS = 5;
const FAILED = "Failed to import timeline";
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
const field = "w-full rounded-md border border-stone-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-none";

/** The 'Import' button of the timelines screen and its dialog. */
export function ImportDialog() {
  const [open, setOpen] = useState(false);
  const { lock, note } = useOfflineLock();
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)} {...lock}>
        <Upload aria-hidden="true" className="h-4 w-4" /> Import
      </Button>
      {note}
      <ImportFileDialog open={open} onOpenChange={setOpen} />
    </>
  );
}

/**
 * 'Import': a StoryWeave JSON file, a Markdown outline, a CSV sheet or an .xlsx/.ods spreadsheet becomes a new
 * timeline, or (opened from a timeline the writer can edit) is added to that one. The file is read and checked
 * here with the parser the server runs (db/domain/timeline-transfer.ts), so the preview shows exactly what will
 * be created and errors name the line before anything is sent; the file goes to the server as its bytes.
 */
export function ImportFileDialog({
  open,
  onOpenChange,
  into = null,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  into?: ImportTarget | null;
}) {
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const offline = useOfflineLock();
  const [book, setBook] = useState<Book | null>(null);
  const [checking, setChecking] = useState(false);
  /** How far a book file is: being sent (0–100 %), or sent and being read by the server (null: nothing under way). */
  const [transfer, setTransfer] = useState<{ sent: number; reading: boolean } | null>(null);
  const trackTransfer = () => {
    setTransfer({ sent: 0, reading: false });
    return fetchWithUploadProgress(
      (sent) => setTransfer({ sent: Math.round(sent * 100), reading: false }),
      () => setTransfer({ sent: 100, reading: true }),
    );
  };
  const [error, setError] = useState<string | null>(null);
  const [limitReached, setLimitReached] = useState(false);
  const [title, setTitle] = useState("");
  const [dateOrder, setDateOrder] = useState<DateOrder | null>(null);
  const [target, setTarget] = useState<"new" | "into">(into ? "into" : "new");
  const navigate = useNavigate();
  const inputId = useId();
  const errorId = useId();
  const titleId = useId();
  const appending = into !== null && target === "into";

  const reset = () => {
    setChosen(null);
    setBook(null);
    setError(null);
    setLimitReached(false);
    setDateOrder(null);
  };
  const close = (o: boolean) => {
    onOpenChange(o);
    if (!o) {
      reset();
      setTarget(into ? "into" : "new");
    }
  };

  const send = useMutation(
    async ({ file, title, dateOrder, into }: Send) => {
      const query = { ...(dateOrder ? { dateOrder } : {}), ...(into?.shareCode ? { share: into.shareCode } : {}) };
      const init = { init: { body: file.bytes, headers: { "Content-Type": importContentType[file.format] } } };
      if (into) {
        const result = await unwrap(client.api.timelines[":id"].import.$post({ param: { id: String(into.id) }, query }, init));
        return { kind: "into" as const, title: result.timeline.title, id: result.timeline.id, events: result.added.events };
      }
      const timeline = await unwrap(client.api.timelines.import.$post({ query: { ...query, title } }, init));
      if ("summary" in timeline) throw new Error(FAILED);
      return { kind: "new" as const, title: timeline.title, id: timeline.id, events: 0 };
    },
    {
      success: (r) => ({
        title: "Success",
        description: r.kind === "into" ? `Added ${plural(r.events, "event", "events")} to "${r.title}"` : `Imported "${r.title}"`,
      }),
      error: (e) => {
        setError(errorMessage(e, FAILED));
        setLimitReached(e instanceof ApiError && e.status === 403 && !appending);
        return errorMessage(e, FAILED);
      },
      revalidate: (r) => r.kind === "into",
      onSuccess: (r) => {
        close(false);
        if (r.kind === "new") navigate(`/timeline/${r.id}`);
      },
    },
  );

  async function read(file: { name: string; format: ImportFormat; bytes: ArrayBuffer }, order: DateOrder | null) {
    const result = await parseImportFile(file.format, file.bytes, {
      title: titleFromFilename(file.name),
      ...(order ? { dateOrder: order } : {}),
    });
    if (!result.ok) {
      setChosen(null);
      return setError(result.error);
    }
    setError(null);
    setChosen({ ...file, document: result.document, dates: result.dates });
    return result;
  }

  // The file goes to the server once as a dry run: nothing is written until the writer presses Import.
  const sendBook = useMutation(
    async ({ file, title }: { file: Book; title: string }) => {
      const init = { init: { body: file.bytes, headers: { "Content-Type": file.contentType } }, fetch: trackTransfer() };
      const result = await unwrap(
        client.api.timelines.import.$post({ query: { filename: file.name, ...(title ? { title } : {}) } }, init),
      ).finally(() => setTransfer(null));
      if ("summary" in result) throw new Error(FAILED);
      const books = "timelines" in result ? result.timelines.length : 1;
      return { title: result.title, id: result.id, books };
    },
    {
      success: (r) => ({
        title: "Success",
        description: r.books > 1 ? `Imported ${plural(r.books, "book", "books")} as a series` : `Imported "${r.title}"`,
      }),
      error: (e) => {
        setError(errorMessage(e, FAILED));
        setLimitReached(e instanceof ApiError && e.status === 403);
        return errorMessage(e, FAILED);
      },
      onSuccess: (r) => {
        close(false);
        navigate(`/timeline/${r.id}`);
      },
    },
  );

  async function chooseBook(file: File, contentType: string) {
    if (file.size > BOOK_MAX_BYTES) return setError(`This file is too large (${BOOK_MAX_BYTES / 1024 / 1024} MB max)`);
    const bytes = await file.arrayBuffer();
    setChecking(true);
    try {
      const init = { init: { body: bytes, headers: { "Content-Type": contentType } }, fetch: trackTransfer() };
      const result = await unwrap(client.api.timelines.import.$post({ query: { dryRun: "1", filename: file.name } }, init));
      if (!("summary" in result)) throw new Error(FAILED);
      setBook({ name: file.name, contentType, bytes, summary: result.summary });
      setTitle(result.summary.title);
    } catch (e) {
      setError(errorMessage(e, FAILED));
    } finally {
      setChecking(false);
      setTransfer(null);
    }
  }

  async function choose(file: File | undefined) {
    reset();
    if (!file) return;
    const bookFormat = bookFormatOf(file.name);
    if (bookFormat) return chooseBook(file, bookContentType[bookFormat]);
    const format = importFormatOf(file.name);
    if (!format) return setError(UNSUPPORTED_IMPORT);
    if (file.size > limits.body) return setError("This file is too large (1 MB max)");
    const result = await read({ name: file.name, format, bytes: await file.arrayBuffer() }, null);
    if (result) setTitle(result.document.timeline.title);
  }

  function chooseOrder(order: DateOrder) {
    setDateOrder(order);
    if (chosen) void read(chosen, order);
  }

  const doc = chosen?.document;
  const dates = chosen?.dates;
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={into ? "Import a file" : "Import a timeline"}
      description="A StoryWeave JSON export, a Markdown outline (# Title, then ## Event sections), or a CSV (.csv, .tsv) or spreadsheet (.xlsx, .ods) with title and content columns (date and characters optional)."
    >
      <div className="space-y-4">
        <div>
          <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
            File (.json, .md, .csv, .tsv, .xlsx, .ods, .docx, .odt, .pltr, .yw7 or a Scrivener/novelWriter .zip)
          </label>
          <input
            id={inputId}
            type="file"
            accept={`${IMPORT_ACCEPT},${BOOK_ACCEPT}`}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => void choose(e.currentTarget.files?.[0])}
            className="block w-full text-sm file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-stone-100"
          />
        </div>

        {into && !book ? (
          <fieldset className="space-y-1 text-sm">
            <legend className="mb-1 font-medium">Import into</legend>
            <label className="flex items-center gap-2">
              <input type="radio" name="import-target" checked={target === "into"} onChange={() => setTarget("into")} />
              Add to “{into.title}”
            </label>
            <label className="flex items-center gap-2">
              <input type="radio" name="import-target" checked={target === "new"} onChange={() => setTarget("new")} />
              New timeline
            </label>
          </fieldset>
        ) : null}

        {(chosen && !appending) || book ? (
          <div>
            <label htmlFor={titleId} className="mb-1 block text-sm font-medium">
              Title
            </label>
            <input
              id={titleId}
              value={title}
              maxLength={limits.timelineTitle}
              onChange={(e) => setTitle(e.currentTarget.value)}
              className={field}
            />
          </div>
        ) : null}

        {dates?.ambiguous ? (
          <fieldset className="space-y-1 text-sm">
            <legend className="mb-1 font-medium">Dates such as 3/4/2024 are</legend>
            {(
              [
                ["mdy", "Month/day (March 4)"],
                ["dmy", "Day/month (3 April)"],
              ] as const
            ).map(([order, label]) => (
              <label key={order} className="flex items-center gap-2">
                <input type="radio" name="date-order" checked={(dateOrder ?? dates.order) === order} onChange={() => chooseOrder(order)} />
                {label}
              </label>
            ))}
          </fieldset>
        ) : null}

        {error ? (
          <div id={errorId} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            {error}
            {limitReached ? (
              <>
                {" "}
                <OnlineOnlyTextLink to="/upgrade" className="font-medium underline">
                  Upgrade to Premium
                </OnlineOnlyTextLink>
              </>
            ) : null}
          </div>
        ) : null}

        {transfer && !transfer.reading ? (
          <div className="space-y-1 text-sm text-stone-600">
            <p>Sending the file… {transfer.sent}%</p>
            <progress className="h-2 w-full accent-brand-600" max={100} value={transfer.sent} aria-label="Sending the file" />
          </div>
        ) : checking || transfer?.reading ? (
          <p className="text-sm text-stone-600">Reading the file…</p>
        ) : null}

        {book ? (
          <section aria-label="Import preview" className="rounded-md border border-stone-200 bg-stone-50 p-3 text-sm">
            <p className="font-serif text-lg font-semibold">{title.trim() || book.summary.title}</p>
            <p className="mt-2 text-stone-700">
              Will create {plural(book.summary.chapters, "chapter", "chapters")} · {plural(book.summary.scenes, "scene", "scenes")} ·{" "}
              {plural(book.summary.words, "word", "words")} · {plural(book.summary.codex, "codex entry", "codex entries")} ·{" "}
              {plural(book.summary.plotlines, "plotline", "plotlines")}
            </p>
            {book.summary.skipped.length > 0 ? (
              <div className="mt-2">
                <p className="font-medium">Not imported</p>
                <ul className="list-disc pl-5 text-stone-700">
                  {book.summary.skipped.map((s) => (
                    <li key={s}>{s}</li>
                  ))}
                </ul>
              </div>
            ) : null}
          </section>
        ) : null}

        {doc ? (
          <section aria-label="Import preview" className="rounded-md border border-stone-200 bg-stone-50 p-3 text-sm">
            <p className="font-serif text-lg font-semibold">{appending ? into.title : title.trim() || doc.timeline.title}</p>
            {doc.timeline.description && !appending ? <p className="mt-1 line-clamp-3 text-stone-700">{doc.timeline.description}</p> : null}
            <p className="mt-2 text-stone-700">
              {plural(doc.events.length, "event", "events")} · {plural(doc.entities.length, "codex entry", "codex entries")}
            </p>
            {doc.events.length > 0 ? (
              <ol className="mt-2 list-decimal space-y-1 pl-5">
                {doc.events.slice(0, PREVIEW_EVENTS).map((event, i) => (
                  <li key={i}>
                    <span className="font-medium">{event.title}</span>
                    {formatStoryTime(event) ? <span className="text-stone-600"> · {formatStoryTime(event)}</span> : null}
                  </li>
                ))}
              </ol>
            ) : null}
            {doc.events.length > PREVIEW_EVENTS ? (
              <p className="mt-1 text-stone-600">and {plural(doc.events.length - PREVIEW_EVENTS, "more", "more")}</p>
            ) : null}
          </section>
        ) : null}

        <div className="flex items-center justify-end gap-2">
          {offline.note}
          <Button variant="outline" onClick={() => close(false)} disabled={send.pending || sendBook.pending}>
            Cancel
          </Button>
          {book ? (
            <Button onClick={() => void sendBook.run({ file: book, title: title.trim() })} disabled={sendBook.pending} {...offline.lock}>
              {sendBook.pending ? "Importing..." : "Import Book"}
            </Button>
          ) : (
            <Button
              onClick={() => chosen && void send.run({ file: chosen, title: title.trim(), dateOrder, into: appending ? into : null })}
              disabled={!chosen || send.pending || (!appending && !title.trim())}
              {...offline.lock}
            >
              {send.pending ? "Importing..." : appending ? "Add Events" : "Import Timeline"}
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
