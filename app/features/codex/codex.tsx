import { BookOpen, BookUser, Eye, Pencil, Plus, Search, Trash2 } from "lucide-react";
import { Suspense, lazy, useEffect, useId, useMemo, useState } from "react";
import type { CodexApi } from "~/features/codex/codex-request";
import { useCodex, useCodexActions } from "~/features/codex/codex-queries";
import { LinkAllMentionsButton } from "~/features/codex/link-mentions";
import { useOfflineLock } from "~/features/offline/offline-lock";
import type { SceneOption } from "~/features/codex/progressions";
import { Button } from "~/ui/button";
import { ConfirmDialog } from "~/ui/dialog";
import { Input, Label } from "~/ui/input";
import { cn } from "~/lib/cn";
import { type EntityKind, entityKinds } from "../../../db/domain/rules";
import type { EntityView } from "../../../worker/services/entities";

// The codex: a timeline's characters, places and things, listed beside the events.

export const kindHeadings: Record<EntityKind, string> = { character: "Characters", place: "Places", thing: "Things" };

/** Name or any alias contains the query (case-insensitive); a blank query matches all. */
export function matchesEntity(entity: EntityView, query: string) {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return entity.name.toLowerCase().includes(q) || entity.aliases.some((a) => a.toLowerCase().includes(q));
}

export function ColorDot({ color, className }: { color: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn("inline-block h-2.5 w-2.5 shrink-0 rounded-full", className)}
      style={{ backgroundColor: color }}
    />
  );
}

/** The event card's picker creates entries the way the panel's dialog does. */
export { createEntityRequest } from "~/features/codex/codex-request";

type PanelProps = CodexApi & {
  canEdit: boolean;
  canDelete: boolean;
  onSelect: (entity: EntityView) => void;
  /** Open an entry's dialog from elsewhere (the mind map); a new object each time. */
  editRequest?: { entity: EntityView } | null;
  /** The timeline's scenes in story order, for an entry's 'From this scene on'. */
  scenes?: SceneOption[];
};

// Only writers who add or edit an entry need the form: loaded on first use, not with the page.
const loadEntityDialog = () => import("~/features/codex/codex-dialog");
const EntityDialog = lazy(() => loadEntityDialog().then((m) => ({ default: m.EntityDialog })));

export function CodexPanel({ canEdit, canDelete, onSelect, editRequest, scenes, ...api }: PanelProps) {
  // The codex and its changes are the data layer's (codex-queries.ts).
  const entities = useCodex();
  const actions = useCodexActions();
  const [query, setQuery] = useState("");
  const [editing, setEditing] = useState<EntityView | "new" | null>(null);
  useEffect(() => {
    if (editRequest && canEdit) setEditing(editRequest.entity);
  }, [editRequest, canEdit]);
  const [deleting, setDeleting] = useState<EntityView | null>(null);
  const searchId = useId();
  const [dialogMounted, setDialogMounted] = useState(false);
  useEffect(() => {
    if (editing) setDialogMounted(true);
  }, [editing]);
  const shown = entities.filter((e) => matchesEntity(e, query));
  // The codex's changes are not queued with no network: its write controls say 'You're offline' (DESIGN.md §12).
  const { lock, note } = useOfflineLock();

  const [deletePending, setDeletePending] = useState(false);
  const deleteEntity = async (entity: EntityView) => {
    setDeletePending(true);
    // Its links go too: the scenes reload (codex-queries.ts).
    if (await actions.remove(entity.id)) setDeleting(null);
    setDeletePending(false);
  };

  return (
    <section id="codex" aria-labelledby={`${searchId}-title`} className="rounded-xl border border-stone-200 bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 id={`${searchId}-title`} className="flex items-center gap-2 text-lg font-semibold">
          <BookUser aria-hidden="true" className="h-5 w-5 text-brand-700" /> Codex
        </h2>
        {canEdit ? (
          <div className="flex items-center gap-2">
            {note}
            <Button size="sm" onClick={() => setEditing("new")} onPointerEnter={() => void loadEntityDialog()} {...lock}>
              <Plus aria-hidden="true" className="h-4 w-4" /> New entry
            </Button>
          </div>
        ) : null}
      </div>
      <div className="relative mt-3">
        <Search aria-hidden="true" className="pointer-events-none absolute top-2.5 left-2.5 h-4 w-4 text-stone-500" />
        <Label htmlFor={searchId} className="sr-only">
          Search the codex
        </Label>
        <Input
          id={searchId}
          type="search"
          placeholder="Search by name or alias"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          className="pl-8"
        />
      </div>
      {canEdit && entities.length > 0 ? (
        <div className="mt-2 flex justify-end">
          <LinkAllMentionsButton {...api} lock={lock} />
        </div>
      ) : null}
      {entities.length === 0 ? (
        <p className="mt-4 text-sm text-stone-600">
          No codex entries yet.{canEdit ? " Add the characters, places and things of your story." : ""}
        </p>
      ) : shown.length === 0 ? (
        <p className="mt-4 text-sm text-stone-600">No entries match "{query.trim()}".</p>
      ) : (
        entityKinds.map((kind) => {
          const list = shown.filter((e) => e.kind === kind);
          if (list.length === 0) return null;
          return (
            <div key={kind} className="mt-4">
              <h3 className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{kindHeadings[kind]}</h3>
              <ul className="mt-1 divide-y divide-stone-100" aria-label={kindHeadings[kind]}>
                {list.map((entity) => (
                  <li key={entity.id} className="flex items-start gap-2 py-1.5" data-testid="codex-entry">
                    <ColorDot color={entity.color} className="mt-1.5" />
                    <div className="min-w-0 flex-1">
                      <button
                        type="button"
                        className="text-left font-medium break-words hover:underline"
                        onClick={() => onSelect(entity)}
                        title={`Show only events with ${entity.name}`}
                      >
                        {entity.name}
                      </button>
                      {entity.aliases.length ? <p className="text-xs break-words text-stone-600">{entity.aliases.join(", ")}</p> : null}
                      {entity.description ? <p className="line-clamp-2 text-xs break-words text-stone-700">{entity.description}</p> : null}
                    </div>
                    {canEdit ? (
                      <Button
                        size="icon"
                        variant="ghost"
                        className="h-8 w-8"
                        aria-label={`Edit ${entity.name}`}
                        onClick={() => setEditing(entity)}
                        {...lock}
                      >
                        <Pencil aria-hidden="true" className="h-4 w-4" />
                      </Button>
                    ) : null}
                    {canDelete ? (
                      <Button
                        size="icon"
                        variant="ghost"
                        className="h-8 w-8 text-red-700 hover:bg-red-50"
                        aria-label={`Delete ${entity.name}`}
                        onClick={() => setDeleting(entity)}
                        {...lock}
                      >
                        <Trash2 aria-hidden="true" className="h-4 w-4" />
                      </Button>
                    ) : null}
                  </li>
                ))}
              </ul>
            </div>
          );
        })
      )}
      {canEdit && dialogMounted ? (
        <Suspense fallback={null}>
          <EntityDialog
            {...api}
            open={editing !== null}
            entity={editing === "new" ? null : editing}
            usedColors={entities.map((e) => e.color)}
            scenes={scenes}
            onOpenChange={(open) => !open && setEditing(null)}
          />
        </Suspense>
      ) : null}
      {canDelete ? (
        <ConfirmDialog
          open={deleting !== null}
          onOpenChange={(o) => !o && setDeleting(null)}
          title="Delete this codex entry?"
          description={`"${deleting?.name ?? ""}" will be removed from the codex and from every event it is linked to.`}
          confirmLabel="Delete Entry"
          pendingLabel="Deleting..."
          pending={deletePending}
          onConfirm={() => (deleting ? void deleteEntity(deleting) : undefined)}
        />
      ) : null}
    </section>
  );
}

/** An event's linked entities as colored chips; a click filters the timeline to that entity. */
export function EntityChips({
  ids,
  povId,
  byId,
  onSelect,
  onRead,
  ages,
}: {
  ids: number[];
  povId: number | null;
  byId: Map<number, EntityView>;
  onSelect?: (entity: EntityView) => void;
  /** Read the entry as of this scene (its progressions up to here). */
  onRead?: (entity: EntityView) => void;
  /** Ages at this scene: 'Mara (17)'. */
  ages?: Record<number, number>;
}) {
  const linked = ids.map((id) => byId.get(id)).filter((e): e is EntityView => Boolean(e));
  if (linked.length === 0) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-1.5" aria-label="Linked codex entries">
      {linked.map((entity) => (
        <li key={entity.id} className="inline-flex items-center">
          <button
            type="button"
            onClick={() => onSelect?.(entity)}
            title={`Show only events with ${entity.name}`}
            className="inline-flex items-center gap-1.5 rounded-full border border-stone-300 bg-stone-50 px-2 py-0.5 text-xs font-medium text-stone-800 hover:bg-stone-100"
            data-testid="entity-chip"
          >
            <ColorDot color={entity.color} />
            {entity.id === povId ? <Eye aria-hidden="true" className="h-3 w-3" /> : null}
            {entity.name}
            {ages?.[entity.id] !== undefined ? ` (${ages[entity.id]})` : null}
            {entity.id === povId ? <span className="sr-only"> (POV)</span> : null}
          </button>
          {onRead ? (
            <button
              type="button"
              onClick={() => onRead(entity)}
              // Named apart from the chip (whose name is the entry's), described with the entry's name.
              aria-label="As of this scene"
              title={`Read ${entity.name} as of this scene`}
              className="ml-0.5 rounded-full p-1 text-stone-600 hover:bg-stone-100 hover:text-stone-900"
              data-testid="entity-read"
            >
              <BookOpen aria-hidden="true" className="h-3 w-3" />
            </button>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** 'Story time: 15 March 2024 – 20 March 2024 · Ides', or nothing when the event has no story time. */
export function storyTimeText(event: {
  storyStart: string | null;
  storyEnd: string | null;
  storyStartDisplay?: string | null;
  storyEndDisplay?: string | null;
  storyLabel: string | null;
}) {
  const range = [event.storyStartDisplay ?? event.storyStart, event.storyEndDisplay ?? event.storyEnd].filter(Boolean).join(" – ");
  const text = [range, event.storyLabel].filter(Boolean).join(" · ");
  return text ? `Story time: ${text}` : null;
}

export function useEntityMap(entities: EntityView[]) {
  return useMemo(() => new Map(entities.map((e) => [e.id, e])), [entities]);
}
