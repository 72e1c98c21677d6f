import { ListFilter } from "lucide-react";
import { lazy, type ReactNode, Suspense, useEffect, useId, useState } from "react";
import { cn } from "~/lib/cn";
import { type ChapterOption, type EventFilter, isFiltering } from "../../../db/domain/story-analysis";
import type { EntityView } from "../../../worker/services/entities";

const TEXT_DEBOUNCE_MS = 300;

/** A chapter as the filters name it. */
export type { ChapterOption };

// the panel's code loads when it first opens (or, with a filter in the address, with the page).
const loadPanel = () => import("~/features/timeline/event-filter-panel");
const FilterPanel = lazy(() => loadPanel().then((m) => ({ default: m.FilterPanel })));

/**
 * Filters that combine: codex entries (any or all of them), text, dated or undated, a chapter (when the
 * timeline has chapters). The screen keeps
 * the filter in the address, so a filtered view can be shared. Folded behind a 'Filters' button until asked for;
 * an active filter (e.g. from a shared address) opens it.
 */
export function EventFilters({
  filter,
  entities,
  chapters,
  myUserId,
  onChange,
  children,
}: {
  filter: EventFilter;
  entities: EntityView[];
  /** The timeline's chapters in order, once known (none: no chapter filter). */
  chapters?: ChapterOption[];
  /** The writer looking: the assignee filter's 'Mine' (scenes where they have an open task). */
  myUserId?: number;
  /** Gets the change as a function of the latest filter, so quick successive changes add up. */
  onChange: (update: (current: EventFilter) => EventFilter) => void;
  /** Shown on the same row as the 'Filters' button (the jump box). */
  children?: ReactNode;
}) {
  const panelId = useId();
  const [text, setText] = useState(filter.text);
  // The address is the truth: another tab, Back, or a chip click may change it.
  useEffect(() => setText(filter.text), [filter.text]);
  useEffect(() => {
    if (text === filter.text) return;
    const timer = setTimeout(() => onChange((f) => ({ ...f, text })), TEXT_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, filter, onChange]);

  const active = isFiltering(filter);
  const [open, setOpen] = useState(active);
  useEffect(() => {
    if (active) setOpen(true);
  }, [active]);
  const count =
    filter.entityIds.length +
    (filter.text.trim() ? 1 : 0) +
    (filter.dated ? 1 : 0) +
    (filter.chapter !== null ? 1 : 0) +
    (filter.status !== null ? 1 : 0) +
    (filter.assignee !== null ? 1 : 0);

  return (
    <div className="mb-4 space-y-3">
      <div className="flex flex-wrap items-start gap-2">
        {children}
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          onPointerEnter={() => void loadPanel()}
          onFocus={() => void loadPanel()}
          className={cn(
            "inline-flex h-9 items-center gap-1.5 rounded-md border px-3 text-sm font-medium",
            active ? "border-brand-300 bg-brand-50 text-brand-900" : "border-stone-300 bg-white text-stone-700 hover:bg-stone-50",
          )}
        >
          <ListFilter aria-hidden="true" className="h-4 w-4" />
          Filters{count ? ` (${count})` : ""}
        </button>
      </div>
      {open ? (
        <Suspense fallback={<div id={panelId} className="h-16 rounded-lg border border-stone-200 bg-white" />}>
          <FilterPanel
            panelId={panelId}
            filter={filter}
            entities={entities}
            chapters={chapters}
            myUserId={myUserId}
            text={text}
            setText={setText}
            onChange={onChange}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
