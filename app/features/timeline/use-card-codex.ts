import { useCallback, useMemo } from "react";
import { useEntityMap } from "~/features/codex/codex";
import { useCodexList } from "~/features/codex/codex-queries";
import type { CardCodex } from "~/features/timeline/event-card";
import type { ApiClient } from "~/lib/client";
import type { EntityKind } from "../../../db/domain/rules";
import { type EventFilter, noFilter } from "../../../db/domain/story-analysis";
import type { EntityView } from "../../../worker/services/entities";
import type { EventView } from "../../../worker/services/events";

/**
 * The timeline's codex as the cards see it (the list is the data layer's, app/features/codex/codex-queries.ts):
 * chips filter the timeline, the picker may create an entry, a mention may be linked.
 */
export function useCardCodex({
  timelineId,
  shareCode,
  client,
  canEdit,
  setFilter,
  create,
  link,
  linkAll,
  read,
}: {
  timelineId: number;
  shareCode?: string | null;
  /** The timeline session's client. */
  client: ApiClient;
  canEdit: boolean;
  setFilter: (filter: EventFilter) => void;
  /** The codex's create (useCodexActions): the new entry, or null when refused. */
  create: (fields: { kind: EntityKind; name: string }) => Promise<EntityView | null>;
  link: (event: EventView, entity: EntityView) => unknown;
  /** 'Link all mentions' of one scene. */
  linkAll?: (event: EventView, entities: EntityView[]) => unknown;
  /** Read an entry as of a card's scene. */
  read?: (event: EventView, entity: EntityView) => void;
}) {
  const entities = useCodexList(timelineId, shareCode);
  const codexApi = useMemo(() => ({ timelineId, shareCode, client }), [timelineId, shareCode, client]);
  const selectEntity = useCallback((entity: EntityView) => setFilter({ ...noFilter, entityIds: [entity.id] }), [setFilter]);
  const createEntity = useCallback((kind: EntityKind, name: string) => create({ kind, name }), [create]);
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
  return { entities, byId, codexApi, selectEntity, codex };
}
