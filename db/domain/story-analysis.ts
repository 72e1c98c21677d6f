// What the story model can tell a writer about a timeline, computed from the events and the codex the page
// already holds: lanes (who is in which scene), filters, and codex names mentioned in an event but not linked.
// Story time counted in the timeline's calendar (gaps, overlaps, clashes) is in story-gaps.ts, a lazy chunk. Pure functions, no I/O: the page, tests and later the AI context use them.
import { storyOrderKey } from "./story-order";
import { type SceneStatus, isSceneStatus } from "./task-rules";

export type StoryEvent = {
  id: number;
  title: string;
  content: string;
  entityIds: number[];
  povEntityId: number | null;
  storyStart: string | null;
  storyEnd: string | null;
};
export type StoryEntity = { id: number; kind: "character" | "place" | "thing"; name: string; aliases: string[] };

export type Lane<E extends StoryEvent> = {
  /** null: the events that link no entry of this kind. */
  entity: StoryEntity | null;
  cells: { event: E; column: number; isPov: boolean }[];
};

/**
 * One lane per entity of `kind` (by name), each event in every lane of the entities it links, in the column of its
 * place in `ordered` (so a scene lines up across lanes). Entities without events still get their (empty) lane.
 */
export function buildLanes<E extends StoryEvent>(ordered: E[], entities: StoryEntity[], kind: StoryEntity["kind"]): Lane<E>[] {
  const ofKind = entities.filter((e) => e.kind === kind).sort((a, b) => a.name.localeCompare(b.name));
  const lanes = new Map<number, Lane<E>>(ofKind.map((entity) => [entity.id, { entity, cells: [] }]));
  const none: Lane<E> = { entity: null, cells: [] };
  ordered.forEach((event, column) => {
    let placed = false;
    for (const id of event.entityIds) {
      const lane = lanes.get(id);
      if (!lane) continue;
      lane.cells.push({ event, column, isPov: event.povEntityId === id });
      placed = true;
    }
    if (!placed) none.cells.push({ event, column, isPov: false });
  });
  return [...lanes.values(), ...(none.cells.length ? [none] : [])];
}

export type ContinuityFlag = { eventId: number; otherEventId: number; characterId: number; message: string };

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Codex entries named (by name or alias, whole words, any case) in an event's title or text but not linked to it:
 * the page offers 'Link Mara?' for each.
 */
export function unlinkedMentions<E extends StoryEntity>(event: Pick<StoryEvent, "title" | "content" | "entityIds">, entities: E[]): E[] {
  const text = `${event.title}\n${event.content}`;
  return entities.filter((entity) => {
    if (event.entityIds.includes(entity.id)) return false;
    return [entity.name, ...entity.aliases]
      .map((n) => n.trim())
      .filter((n) => n.length >= 2)
      .some((n) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(n)}(?![\\p{L}\\p{N}])`, "iu").test(text));
  });
}

/** A chapter as the filters name it. */
export type ChapterOption = { id: number; title: string };

export type EventFilter = {
  entityIds: number[];
  /** 'any': linked to at least one of the entries; 'all': linked to every one. */
  match: "any" | "all";
  text: string;
  dated: "dated" | "undated" | null;
  /** The scenes of one chapter (its id), of none ('none'), or of every chapter (null). */
  chapter: number | "none" | null;
  /** The scenes of one status ('Idea' … 'Done'), of none ('none'), or of any (null). */
  status: SceneStatus | "none" | null;
  /** The scenes where this writer (their user id) has an open task, or any scene (null). */
  assignee: number | null;
};

export const noFilter: EventFilter = { entityIds: [], match: "any", text: "", dated: null, chapter: null, status: null, assignee: null };

/**
 * The filter kept in the address, so a filtered view can be shared:
 * `?entity=1,2&match=all&q=storm&dated=undated&chapter=4&status=Draft` (`chapter=none`: scenes in no chapter;
 * `status=none`: scenes without a status; `assignee=7`: scenes where user 7 has an open task).
 */
export function filterFromParams(params: URLSearchParams): EventFilter {
  const entityIds = [
    ...new Set(
      (params.get("entity") ?? "")
        .split(",")
        .map(Number)
        .filter((n) => Number.isSafeInteger(n) && n > 0),
    ),
  ];
  const dated = params.get("dated");
  const chapter = params.get("chapter");
  const chapterId = Number(chapter);
  const status = params.get("status");
  const assignee = params.get("assignee");
  const assigneeId = Number(assignee);
  return {
    entityIds,
    match: params.get("match") === "all" ? "all" : "any",
    text: (params.get("q") ?? "").slice(0, 200),
    dated: dated === "dated" || dated === "undated" ? dated : null,
    chapter: chapter === "none" ? "none" : chapter && /^\d{1,12}$/.test(chapter) && chapterId > 0 ? chapterId : null,
    status: status === "none" ? "none" : isSceneStatus(status) ? status : null,
    assignee: assignee && /^\d{1,12}$/.test(assignee) && assigneeId > 0 ? assigneeId : null,
  };
}

/** Writes `filter` into `params` (a copy), leaving out what is at its default. */
export function filterToParams(filter: EventFilter, params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string | null) => (value ? next.set(name, value) : next.delete(name));
  set("entity", filter.entityIds.join(","));
  set("match", filter.entityIds.length > 1 && filter.match === "all" ? "all" : null);
  set("q", filter.text.trim() ? filter.text : null);
  set("dated", filter.dated);
  set("chapter", filter.chapter === null ? null : String(filter.chapter));
  set("status", filter.status);
  set("assignee", filter.assignee === null ? null : String(filter.assignee));
  return next;
}

export const isFiltering = (f: EventFilter) =>
  f.entityIds.length > 0 || f.text.trim() !== "" || f.dated !== null || f.chapter !== null || f.status !== null || f.assignee !== null;

/**
 * The events `filter` keeps, in their order. Text matches title or content, any case; an assignee keeps the
 * scenes where they have an open task (`assigneeIds`: the people with an open task there).
 */
export function filterEvents<
  E extends Pick<StoryEvent, "title" | "content" | "entityIds" | "storyStart"> & {
    chapterId?: number | null;
    status?: string | null;
    assigneeIds?: number[];
  },
>(events: E[], filter: EventFilter): E[] {
  const text = filter.text.trim().toLowerCase();
  const ids = filter.entityIds;
  return events.filter((event) => {
    if (ids.length) {
      const linked =
        filter.match === "all" ? ids.every((id) => event.entityIds.includes(id)) : ids.some((id) => event.entityIds.includes(id));
      if (!linked) return false;
    }
    if (text && !event.title.toLowerCase().includes(text) && !event.content.toLowerCase().includes(text)) return false;
    if (filter.dated) {
      const isDated = storyOrderKey(event.storyStart) !== null;
      if ((filter.dated === "dated") !== isDated) return false;
    }
    if (filter.chapter !== null && (event.chapterId ?? "none") !== filter.chapter) return false;
    if (filter.status !== null && (event.status ?? "none") !== filter.status) return false;
    if (filter.assignee !== null && !event.assigneeIds?.includes(filter.assignee)) return false;
    return true;
  });
}
