import { Upload } from "lucide-react";
import { useId, useState } from "react";
import { Link, useNavigate } from "react-router";
import { limits } from "../../../db/domain/rules";
import {
  type ImportFormat,
  type TimelineDocument,
  UNSUPPORTED_IMPORT,
  formatStoryTime,
  importContentType,
  importFormatOf,
  parseImport,
  titleFromFilename,
} from "../../../db/domain/timeline-transfer";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { useMutation } from "~/lib/use-mutation";
import { ApiError, client, errorMessage, unwrap } from "~/lib/client";

type Chosen = { name: string; format: ImportFormat; text: string; document: TimelineDocument };

const PREVIEW_EVENTS = 5;
const FAILED = "Failed to import timeline";
const plural = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * 'Import': a StoryWeave JSON file, a Markdown outline or a CSV sheet becomes a new timeline. The file
 * is read and checked here with the parser the server runs (db/domain/timeline-transfer.ts), so the preview
 * shows exactly what will be created and errors name the line before anything is sent.
 */
export function ImportDialog() {
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [limitReached, setLimitReached] = useState(false);
  const navigate = useNavigate();
  const inputId = useId();
  const errorId = useId();

  const reset = () => {
    setChosen(null);
    setError(null);
    setLimitReached(false);
  };

  const send = useMutation(
    (file: Chosen) =>
      unwrap(
        client.api.timelines.import.$post(
          { query: file.format === "csv" ? { title: file.document.timeline.title } : {} },
          { init: { body: file.text, headers: { "Content-Type": importContentType[file.format] } } },
        ),
      ),
    {
      success: (timeline) => ({ title: "Success", description: `Imported "${timeline.title}"` }),
      error: (e) => {
        setError(errorMessage(e, FAILED));
        setLimitReached(e instanceof ApiError && e.status === 403);
        return errorMessage(e, FAILED);
      },
      revalidate: false,
      onSuccess: (timeline) => {
        setOpen(false);
        reset();
        navigate(`/timeline/${timeline.id}`);
      },
    },
  );

  async function choose(file: File | undefined) {
    reset();
    if (!file) return;
    const format = importFormatOf(file.name);
    if (!format) return setError(UNSUPPORTED_IMPORT);
    if (file.size > limits.body) return setError("This file is too large (1 MB max)");
    const text = await file.text();
    const result = parseImport(format, text, { title: titleFromFilename(file.name) });
    if (!result.ok) return setError(result.error);
    setChosen({ name: file.name, format, text, document: result.document });
  }

  const doc = chosen?.document;
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Upload aria-hidden="true" className="h-4 w-4" /> Import
      </Button>
      <Dialog
        open={open}
        onOpenChange={(o) => {
          setOpen(o);
          if (!o) reset();
        }}
        title="Import a timeline"
        description="A StoryWeave JSON export, a Markdown outline (# Title, then ## Event sections) or a CSV with title and content columns (date and characters optional)."
      >
        <div className="space-y-4">
          <div>
            <label htmlFor={inputId} className="mb-1 block text-sm font-medium">
              File (.json, .md or .csv)
            </label>
            <input
              id={inputId}
              type="file"
              accept=".json,.md,.markdown,.txt,.csv,application/json,text/markdown,text/csv"
              aria-describedby={error ? errorId : undefined}
              onChange={(e) => void choose(e.currentTarget.files?.[0])}
              className="block w-full text-sm file:mr-3 file:cursor-pointer file:rounded-md file:border file:border-stone-300 file:bg-white file:px-3 file:py-2 file:text-sm file:font-medium hover:file:bg-stone-100"
            />
          </div>

          {error ? (
            <div id={errorId} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
              {error}
              {limitReached ? (
                <>
                  {" "}
                  <Link to="/upgrade" className="font-medium underline">
                    Upgrade to Premium
                  </Link>
                </>
              ) : null}
            </div>
          ) : null}

          {doc ? (
            <section aria-label="Import preview" className="rounded-md border border-stone-200 bg-stone-50 p-3 text-sm">
              <p className="font-serif text-lg font-semibold">{doc.timeline.title}</p>
              {doc.timeline.description ? <p className="mt-1 line-clamp-3 text-stone-700">{doc.timeline.description}</p> : null}
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

          <div className="flex justify-end gap-2">
            <Button variant="outline" onClick={() => setOpen(false)} disabled={send.pending}>
              Cancel
            </Button>
            <Button onClick={() => chosen && void send.run(chosen)} disabled={!chosen || send.pending}>
              {send.pending ? "Importing..." : "Import Timeline"}
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
