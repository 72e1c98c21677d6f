import { Copy } from "lucide-react";
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { client, errorMessage, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { Input, Label } from "~/ui/input";
import type { ReaderLinkView } from "../../../worker/services/reader-links";

// The owner's 'Reader links' (DESIGN §12 'Readers'): make a link for a reader or a group ('Book club', 'Agent'),
// copy its address, see where each of its readers stopped, and end it at once.

/** 'just now', '5 minutes ago', '2 days ago'. */
function ago(iso: string, now = Date.now()) {
  const seconds = Math.round((new Date(iso.includes("T") ? iso : `${iso.replace(" ", "T")}Z`).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ["day", 86400],
    ["hour", 3600],
    ["minute", 60],
  ];
  for (const [unit, size] of steps) if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  return "just now";
}

/** One reader's line: 'Ana — Chapter 7: The Storm, 2 days ago' (or 'has not started'). */
export function readerLine(reader: ReaderLinkView["readers"][number], now = Date.now()) {
  if (!reader.place) return `${reader.name} — has not started`;
  return `${reader.name} — ${reader.place}${reader.at ? `, ${ago(reader.at, now)}` : ""}`;
}

/** The owner's 'Reader links' dialog (opened from the Panels menu, which keeps it shut offline). */
export function ReaderLinksDialog({
  timelineId,
  open,
  onOpenChange,
}: {
  timelineId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Reader links"
      description="People with a link read the book and comment without an account."
      className="max-w-2xl"
    >
      {open ? <ReaderLinks timelineId={timelineId} /> : null}
    </Dialog>
  );
}

function ReaderLinks({ timelineId }: { timelineId: number }) {
  const param = { id: String(timelineId) };
  const [links, setLinks] = useState<ReaderLinkView[] | null>(null);
  const [label, setLabel] = useState("");
  const [busy, setBusy] = useState(false);
  const offline = useOfflineLock("self-center");
  const load = useCallback(async () => {
    try {
      setLinks(await unwrap(client.api.timelines[":id"]["reader-links"].$get({ param: { id: String(timelineId) } })));
    } catch (error) {
      errorToast(errorMessage(error, "Could not load the reader links."));
    }
  }, [timelineId]);
  useEffect(() => void load(), [load]);

  const create = async (e: FormEvent) => {
    e.preventDefault();
    if (!label.trim()) return errorToast("Give the link a label, such as 'Book club'.");
    setBusy(true);
    try {
      await unwrap(client.api.timelines[":id"]["reader-links"].$post({ param, json: { label: label.trim() } }));
      setLabel("");
      await load();
    } catch (error) {
      errorToast(errorMessage(error, "Could not make the link."));
    } finally {
      setBusy(false);
    }
  };
  const end = async (link: ReaderLinkView) => {
    try {
      await unwrap(client.api["reader-links"][":id"].$delete({ param: { id: String(link.id) } }));
      showToast({ title: "Link ended", description: `'${link.label}' no longer opens the book.` });
      await load();
    } catch (error) {
      errorToast(errorMessage(error, "Could not end the link."));
    }
  };
  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      showToast({ title: "Link Copied", description: "The reader link is on your clipboard." });
    } catch {
      errorToast("Could not copy the link. Select it and copy it yourself.");
    }
  };

  return (
    <div className="space-y-4">
      <form onSubmit={create} className="flex items-end gap-2" aria-label="New reader link">
        <div className="flex-1">
          <Label htmlFor="reader-link-label">Label</Label>
          <Input
            id="reader-link-label"
            value={label}
            maxLength={100}
            placeholder="Book club"
            onChange={(e) => setLabel(e.target.value)}
            {...offline.lock}
          />
        </div>
        <Button type="submit" disabled={busy} {...offline.lock}>
          Create link
        </Button>
        {offline.note}
      </form>
      {links === null ? (
        <p className="text-sm text-stone-600">Loading...</p>
      ) : links.length === 0 ? (
        <p className="text-sm text-stone-600">No reader links yet.</p>
      ) : (
        <ul className="space-y-3" aria-label="Reader links">
          {links.map((link) => (
            <li key={link.id} className="rounded-md border border-stone-200 p-3" aria-label={link.label}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">{link.label}</span>
                <Button size="sm" variant="outline" onClick={() => void end(link)} {...offline.lock}>
                  End link
                </Button>
              </div>
              <div className="mt-2 flex items-center gap-2">
                <Input readOnly value={link.url} aria-label={`Address of ${link.label}`} onFocus={(e) => e.target.select()} />
                <Button size="icon" variant="ghost" aria-label={`Copy ${link.label}`} onClick={() => void copy(link.url)}>
                  <Copy aria-hidden="true" className="h-4 w-4" />
                </Button>
              </div>
              {link.readers.length ? (
                <ul className="mt-2 space-y-1 text-sm text-stone-700" aria-label={`Readers of ${link.label}`}>
                  {link.readers.map((r, i) => (
                    <li key={i}>{readerLine(r)}</li>
                  ))}
                </ul>
              ) : (
                <p className="mt-2 text-sm text-stone-600">No one has opened it yet.</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
