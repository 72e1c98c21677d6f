import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createEntityRequest, useEntityMap } from "~/features/codex/codex";
import type { CardCodex } from "~/features/timeline/event-card";
import type { ApiClient } from "~/lib/client";
import { useMutation } from "~/lib/use-mutation";
import type { EntityKind } from "../../../db/domain/rules";
import { type EventFilter, noFilter } from "../../../db/domain/story-analysis";
import type { EntityView } from "../../../worker/services/entities";
import type { EventView } from "../../../worker/services/events";

/**
 * The timeline's codex as the screen keeps it, and as the cards see it: chips filter the timeline, the picker may
 * create an entry, a mention may be linked.
 */
export function useCardCodex({
  timelineId,
  shareCode,
  client,
  loaded,
  canEdit,
  setFilter,
  link,
  linkAll,
  read,
}: {
  timelineId: number;
  shareCode?: string | null;
  /** The timeline session's client. */
  client: ApiClient;
  /** The codex the loader brought. */
  loaded: EntityView[];
  canEdit: boolean;
  setFilter: (filter: EventFilter) => void;
  link: (event: EventView, entity: EntityView) => unknown;
  /** 'Link all mentions' of one scene. */
  linkAll?: (event: EventView, entities: EntityView[]) => unknown;
  /** Read an entry as of a card's scene. */
  read?: (event: EventView, entity: EntityView) => void;
}) {
  const [entities, setEntities] = useState(loaded);
  // A reload that brings the same codex keeps the list as it was (the cards it reaches stay as they are).
  useEffect(() => setEntities((current) => (JSON.stringify(current) === JSON.stringify(loaded) ? current : loaded)), [loaded]);
  const codexApi = { timelineId, shareCode, client };
  const createFromPicker = useMutation((kind: EntityKind, name: string) => createEntityRequest(codexApi, { kind, name }), {
    success: { title: "Success", description: "Codex entry created" },
    error: "Failed to create codex entry",
    revalidate: false,
    onSuccess: (created) => setEntities((list) => [...list, created]),
  });
  const selectEntity = useCallback((entity: EntityView) => setFilter({ ...noFilter, entityIds: [entity.id] }), [setFilter]);
  const latestCreate = useRef(createFromPicker.run);
  latestCreate.current = createFromPicker.run;
  const createEntity = useCallback(async (kind: EntityKind, name: string) => {
    const outcome = await latestCreate.current(kind, name);
    return outcome.ok ? outcome.data : null;
  }, []);
  const onLink = useCallback((event: EventView, entity: EntityView) => void link(event, entity), [link]);
  const onLinkAll = useCallback((event: EventView, mentioned: EntityView[]) => void linkAll?.(event, mentioned), [linkAll]);
  const byId = useEntityMap(entities);
  const codex = useMemo<CardCodex>(
    () => ({
      entities,
      byId,
      onSelect: selectEntity,
      onCreate: canEdit ? createEntity : undefined,
      onLink: canEdit ? onLink : undefined,
      onLinkAll: canEdit && linkAll ? onLinkAll : undefined,
      onRead: read,
    }),
    [entities, byId, selectEntity, createEntity, canEdit, onLink, onLinkAll, linkAll, read],
  );
  return { entities, setEntities, byId, codexApi, selectEntity, codex };
}
