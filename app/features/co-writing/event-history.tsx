import { diffWords } from "diff";
import { useEffect, useState } from "react";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { ConfirmDialog, Dialog } from "~/ui/dialog";
import { Spinner } from "~/ui/spinner";
import { cn } from "~/lib/cn";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import { stripMarks } from "../../../db/domain/plain-text";
import type { EventView } from "../../../worker/services/events";
import type { VersionSummary, VersionView } from "../../../worker/services/versions";
import { useEventHistory } from "./event-history-context";
import { VersionName, changeSummary } from "./version-name";

const exactTime = (iso: string) => new Date(iso).toLocaleString();

/** 'just now', '5 minutes ago', '3 days ago' … */
export function relativeTime(iso: string, now = Date.now()) {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (seconds < 45) return "just now";
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ["minute", 60],
    ["hour", 3600],
    ["day", 86400],
    ["month", 2592000],
    ["year", 31536000],
  ];
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  let unit: Intl.RelativeTimeFormatUnit = "minute";
  let size = 60;
  for (const [u, s] of steps) if (seconds >= s) [unit, size] = [u, s];
  return format.format(-Math.round(seconds / size), unit);
}

/** The version's text against the current one: what restoring would bring back (ins) and remove (del). */
export function DiffText({ from, to }: { from: string; to: string }) {
  const parts = diffWords(from, to);
  return (
    <>
      {parts.map((part, i) =>
        part.added ? (
          <ins key={i} className="mx-px rounded-sm bg-green-100 text-green-900 underline decoration-green-700">
            {part.value}
          </ins>
        ) : part.removed ? (
          <del key={i} className="mx-px rounded-sm bg-red-100 text-red-900 line-through decoration-red-700">
            {part.value}
          </del>
        ) : (
          <span key={i}>{part.value}</span>
        ),
      )}
    </>
  );
}

type Props = {
  event: EventView;
  canEdit: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
};

/**
 * An event's version history: newest first; a selected version is shown
 * against the current text (words the version has and the current text lacks are marked as
 * insertions, words it lacks as deletions), and editors can restore it.
 */
export function EventHistoryDialog({ event, canEdit, open, onOpenChange }: Props) {
  const actions = useEventHistory();
  const query = shareParam(actions?.shareCode);
  const [versions, setVersions] = useState<VersionSummary[] | null>(null);
  const [selected, setSelected] = useState<VersionView | null>(null);
  const [loadingId, setLoadingId] = useState<number | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when opened and when the event's text changes
  useEffect(() => {
    if (!open) return;
    let live = true;
    unwrap(client.api.events[":id"].versions.$get({ param: { id: String(event.id) }, query }))
      .then((list) => live && setVersions(list))
      .catch((error) => {
        if (!live) return;
        setVersions([]);
        errorToast(errorMessage(error, "Failed to load version history"));
      });
    return () => {
      live = false;
    };
  }, [open, event.id, event.version]);

  async function select(id: number) {
    setLoadingId(id);
    try {
      setSelected(await unwrap(client.api["event-versions"][":id"].$get({ param: { id: String(id) }, query })));
    } catch (error) {
      errorToast(errorMessage(error, "Failed to load this version"));
    } finally {
      setLoadingId(null);
    }
  }

  function named(id: number, name: string | null) {
    setVersions((list) => list?.map((v) => (v.id === id ? { ...v, name } : v)) ?? null);
    setSelected((v) => (v?.id === id ? { ...v, name } : v));
  }

  async function restore() {
    if (!selected || !actions) return;
    setRestoring(true);
    const restored = await actions.restore(selected.id);
    setRestoring(false);
    setConfirming(false);
    if (restored) {
      setSelected(null);
      onOpenChange(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`History of ${event.title}`} className="max-w-3xl">
      <div className="grid gap-4 md:grid-cols-[14rem_1fr]">
        <div>
          <h3 className="text-sm font-semibold text-stone-700">Versions</h3>
          {versions === null ? (
            <p className="mt-2">
              <Spinner label="Loading versions" />
            </p>
          ) : versions.length === 0 ? (
            <p className="mt-2 text-sm text-stone-600">No versions yet.</p>
          ) : (
            <ul className="mt-2 max-h-80 space-y-1 overflow-y-auto" aria-label="Versions">
              {versions.map((v) => (
                <li key={v.id}>
                  <button
                    type="button"
                    onClick={() => void select(v.id)}
                    aria-pressed={selected?.id === v.id}
                    className={cn(
                      "w-full rounded-md border px-2 py-1.5 text-left text-sm hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600",
                      selected?.id === v.id ? "border-brand-600 bg-brand-50" : "border-stone-200",
                    )}
                  >
                    {v.name ? <span className="block truncate font-semibold text-brand-700">{v.name}</span> : null}
                    <span className={cn("block truncate", v.name ? "text-xs text-stone-700" : "font-medium")}>{v.title}</span>
                    <span className="block text-xs font-medium text-stone-700" data-testid="version-change">
                      {changeSummary(v, versions)}
                    </span>
                    <span className="block text-xs text-stone-600">
                      {v.authorName} ·{" "}
                      <time dateTime={v.createdAt} title={exactTime(v.createdAt)}>
                        {relativeTime(v.createdAt)}
                      </time>
                      {loadingId === v.id ? " · loading…" : ""}
                    </span>
                    <span className="block truncate text-xs text-stone-600">{v.contentPreview}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="min-w-0">
          {selected ? (
            <section aria-label="Selected version">
              <p className="text-xs text-stone-600">
                {selected.authorName}, <time dateTime={selected.createdAt}>{exactTime(selected.createdAt)}</time>
              </p>
              {canEdit ? (
                <VersionName key={selected.id} versionId={selected.id} name={selected.name} query={query} onNamed={named} />
              ) : null}
              <p className="mt-1 text-xs text-stone-600">
                Compared with the current text: <ins className="bg-green-100 text-green-900 underline">added in this version</ins>,{" "}
                <del className="bg-red-100 text-red-900 line-through">not in this version</del>.
              </p>
              <h4 className="mt-3 font-semibold break-words" data-testid="version-title">
                <DiffText from={event.title} to={selected.title} />
              </h4>
              <p className="mt-1 text-sm whitespace-pre-wrap break-words text-stone-800" data-testid="version-content">
                <DiffText from={stripMarks(event.content)} to={stripMarks(selected.content)} />
              </p>
              {canEdit ? (
                <div className="mt-4 flex gap-2">
                  <OnlineOnlyButton onClick={() => setConfirming(true)} disabled={restoring}>
                    Restore this version
                  </OnlineOnlyButton>
                </div>
              ) : null}
            </section>
          ) : (
            <p className="text-sm text-stone-600">Select a version to compare it with the current text.</p>
          )}
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Restore this version?"
        description="The event's title and text become this version's. The current text stays in the history."
        confirmLabel="Restore"
        pendingLabel="Restoring..."
        pending={restoring}
        onConfirm={() => void restore()}
        needsNetwork
      />
    </Dialog>
  );
}
