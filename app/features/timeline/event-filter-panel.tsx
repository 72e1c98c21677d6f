import { Search, X } from "lucide-react";
import { ColorDot, kindHeadings } from "~/features/codex/codex";
import { Input } from "~/ui/input";
import { cn } from "~/lib/cn";
import { entityKinds } from "../../../db/domain/rules";
import { type ChapterOption, type EventFilter, isFiltering, noFilter } from "../../../db/domain/story-analysis";
import { isSceneStatus, sceneStatuses } from "../../../db/domain/task-rules";
import type { EntityView } from "../../../worker/services/entities";

/** The open 'Filters' panel (event-filters.tsx); its code loads when it first opens. */
export function FilterPanel({
  panelId,
  filter,
  entities,
  chapters,
  myUserId,
  text,
  setText,
  onChange,
}: {
  panelId: string;
  filter: EventFilter;
  entities: EntityView[];
  /** Undefined until they have loaded. */
  chapters?: ChapterOption[];
  /** The writer looking: 'Mine' in the assignee filter. */
  myUserId?: number;
  text: string;
  setText: (text: string) => void;
  onChange: (update: (current: EventFilter) => EventFilter) => void;
}) {
  const active = isFiltering(filter);
  const selected = filter.entityIds.map((entityId) => entities.find((e) => e.id === entityId));
  const available = entities.filter((e) => !filter.entityIds.includes(e.id));
  return (
    <fieldset id={panelId} className="space-y-2 rounded-lg border border-stone-200 bg-white p-3">
      <legend className="sr-only">Filter events</legend>
      <div className="flex flex-wrap items-center gap-2">
        <div className="relative min-w-48 flex-1">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 h-4 w-4 -translate-y-1/2 text-stone-500" />
          <Input
            type="search"
            aria-label="Filter by text"
            placeholder="Filter by text"
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
            className="pl-8"
          />
        </div>
        {entities.length ? (
          <select
            aria-label="Filter by codex entry"
            value=""
            onChange={(e) => {
              const id = Number(e.target.value);
              if (id) onChange((f) => ({ ...f, entityIds: f.entityIds.includes(id) ? f.entityIds : [...f.entityIds, id] }));
            }}
            className="h-10 rounded-md border border-stone-300 bg-white px-2 text-sm"
          >
            <option value="">Add codex entry…</option>
            {entityKinds.map((kind) => {
              const ofKind = available.filter((e) => e.kind === kind);
              return ofKind.length ? (
                <optgroup key={kind} label={kindHeadings[kind]}>
                  {ofKind.map((e) => (
                    <option key={e.id} value={e.id}>
                      {e.name}
                    </option>
                  ))}
                </optgroup>
              ) : null;
            })}
          </select>
        ) : null}
        <select
          aria-label="Story dates"
          value={filter.dated ?? ""}
          onChange={(e) => {
            const dated = (e.target.value || null) as EventFilter["dated"];
            onChange((f) => ({ ...f, dated }));
          }}
          className="h-10 rounded-md border border-stone-300 bg-white px-2 text-sm"
        >
          <option value="">Dated and undated</option>
          <option value="dated">Dated only</option>
          <option value="undated">Undated only</option>
        </select>
        {chapters?.length || filter.chapter !== null ? (
          <select
            aria-label="Chapter"
            value={filter.chapter ?? ""}
            onChange={(e) => {
              const value = e.target.value;
              const chapter = value === "none" ? "none" : value ? Number(value) : null;
              onChange((f) => ({ ...f, chapter }));
            }}
            className="h-10 max-w-56 rounded-md border border-stone-300 bg-white px-2 text-sm"
          >
            <option value="">All chapters</option>
            {chapters?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
            {typeof filter.chapter === "number" && !chapters?.some((c) => c.id === filter.chapter) ? (
              <option value={filter.chapter}>{chapters ? "A removed chapter" : "This chapter"}</option>
            ) : null}
            <option value="none">No chapter</option>
          </select>
        ) : null}
        <select
          aria-label="Status"
          value={filter.status ?? ""}
          onChange={(e) => {
            const value = e.target.value;
            const status = value === "none" ? "none" : isSceneStatus(value) ? value : null;
            onChange((f) => ({ ...f, status }));
          }}
          className="h-10 rounded-md border border-stone-300 bg-white px-2 text-sm"
        >
          <option value="">Any status</option>
          {sceneStatuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
          <option value="none">No status</option>
        </select>
        {myUserId !== undefined || filter.assignee !== null ? (
          <select
            aria-label="Assignee"
            value={filter.assignee ?? ""}
            onChange={(e) => {
              const id = Number(e.target.value);
              onChange((f) => ({ ...f, assignee: Number.isSafeInteger(id) && id > 0 ? id : null }));
            }}
            className="h-10 rounded-md border border-stone-300 bg-white px-2 text-sm"
          >
            <option value="">Any assignee</option>
            {myUserId !== undefined ? <option value={myUserId}>Mine</option> : null}
            {filter.assignee !== null && filter.assignee !== myUserId ? <option value={filter.assignee}>Another writer's</option> : null}
          </select>
        ) : null}
        {active ? (
          <button
            type="button"
            onClick={() => {
              setText("");
              onChange(() => noFilter);
            }}
            className="rounded-md px-2 py-1 text-sm font-medium text-brand-700 hover:bg-brand-50"
          >
            Clear filters
          </button>
        ) : null}
      </div>
      {selected.length ? (
        <div className="flex flex-wrap items-center gap-2">
          {selected.length > 1 ? (
            <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5 text-sm">
              <legend className="sr-only">Show events linked to</legend>
              {(["any", "all"] as const).map((match) => (
                <button
                  key={match}
                  type="button"
                  aria-pressed={filter.match === match}
                  onClick={() => onChange((f) => ({ ...f, match }))}
                  className={cn(
                    "rounded px-2 py-0.5 font-medium",
                    filter.match === match ? "bg-brand-600 text-white" : "text-stone-700 hover:bg-stone-100",
                  )}
                >
                  {match === "any" ? "Any of" : "All of"}
                </button>
              ))}
            </fieldset>
          ) : null}
          <ul className="flex flex-wrap gap-1.5" aria-label="Filtered by">
            {selected.map((entity, i) => {
              const id = filter.entityIds[i];
              return (
                <li
                  key={id}
                  className="inline-flex items-center gap-1.5 rounded-full border border-brand-200 bg-brand-50 py-0.5 pr-0.5 pl-2.5 text-sm font-medium text-brand-900"
                >
                  {entity ? <ColorDot color={entity.color} /> : null}
                  {entity?.name ?? "A removed entry"}
                  <button
                    type="button"
                    aria-label={`Remove ${entity?.name ?? "removed entry"} from the filter`}
                    onClick={() => onChange((f) => ({ ...f, entityIds: f.entityIds.filter((x) => x !== id) }))}
                    className="rounded-full p-0.5 hover:bg-brand-100"
                  >
                    <X aria-hidden="true" className="h-3.5 w-3.5" />
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </fieldset>
  );
}
