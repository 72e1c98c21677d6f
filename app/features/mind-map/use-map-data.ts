import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useMutation } from "~/lib/use-mutation";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { mapLimits, mapRowId } from "../../../db/domain/rules";
import type { MapNodeView, MindMap } from "../../../worker/services/mind-map";
import type { Point } from "./types";

type Options = { timelineId: number; shareCode?: string | null; syncTick: number };
export type SavedPosition = { node: string } & Point;

/**
 * The map's data and every change to it. The map holds its own truth (no route revalidation): each change
 * reloads the map, and a reload that arrives while a node is being dragged (or moved by arrow keys) waits for the
 * drop (or the keys' save).
 */
export function useMapData({ timelineId, shareCode, syncTick }: Options) {
  const [map, setMap] = useState<MindMap | null>(null);
  const query = useMemo(() => shareParam(shareCode), [shareCode]);
  const id = String(timelineId);
  // Writes go through the session's client (the room connection already set); the map's own load does not need it.
  const writer = useTimelineSession().client;
  const dragging = useRef(false);
  const missedLoad = useRef(false);

  const fetchMap = useMutation(() => unwrap(client.api.timelines[":id"].map.$get({ param: { id }, query })), {
    error: "Failed to load the map",
    revalidate: false,
    // Asked before a drag or the arrow keys began, answered during them: it would put the nodes back where they
    // were. Asked again once they rest.
    onSuccess: (loaded) => {
      if (dragging.current) missedLoad.current = true;
      else setMap(loaded);
    },
  });
  const fetchRun = fetchMap.run;
  const load = useCallback(async () => {
    if (dragging.current) {
      missedLoad.current = true;
      return;
    }
    await fetchRun();
  }, [fetchRun]);
  const reload = () => void load();

  // biome-ignore lint/correctness/useExhaustiveDependencies: syncTick, the timeline and the share code are the signals to refetch
  useEffect(() => {
    void load();
  }, [load, syncTick, id, query]);

  /** While a node is dragged, reloads wait; after the drop, one reload catches up (or `force` asks for one). */
  const pauseLoads = useCallback(() => {
    dragging.current = true;
  }, []);
  const resumeLoads = useCallback(() => {
    dragging.current = false;
  }, []);
  const loadIfMissed = useCallback(
    (force: boolean) => {
      if (!missedLoad.current && !force) return;
      missedLoad.current = false;
      void load();
    },
    [load],
  );

  const savePositions = useMutation(
    async (positions: SavedPosition[], _reloadAfter: boolean) => {
      for (let i = 0; i < positions.length; i += mapLimits.positions) {
        const json = { positions: positions.slice(i, i + mapLimits.positions) };
        await unwrap(writer.api.timelines[":id"].map.positions.$put({ param: { id }, query, json }));
      }
    },
    {
      error: (error) => {
        reload();
        return errorMessage(error, "Failed to save the map");
      },
      revalidate: false,
      // Our own write is not echoed: reload once so the laid-out nodes count as placed here too.
      onSuccess: (_, _positions, reloadAfter) => reloadAfter && reload(),
    },
  );

  const setParent = useMutation(
    (v: MapNodeView, parentId: string | null) =>
      unwrap(writer.api["map-nodes"][":id"].$patch({ param: { id: mapRowId(v.id) }, query, json: { parentId } })),
    { error: "Failed to update the map", revalidate: false },
  );

  const addEdge = useMutation(
    (json: { source: string; target: string; label: string; color: string }) =>
      unwrap(writer.api.timelines[":id"].map.edges.$post({ param: { id }, query, json })),
    { error: "Failed to add the edge", revalidate: false, onSuccess: reload },
  );

  const addNode = useMutation(
    (kind: "idea" | "group", text: string, p: Point) =>
      unwrap(
        writer.api.timelines[":id"].map.nodes.$post({
          param: { id },
          query,
          json: { kind, text: text.slice(0, mapLimits.text), x: p.x, y: p.y },
        }),
      ),
    {
      success: (_, kind) => ({ title: "Success", description: kind === "idea" ? "Idea added to the map" : "Group added to the map" }),
      error: "Failed to add to the map",
      revalidate: false,
      onSuccess: reload,
    },
  );

  const removeNode = useMutation(
    (v: MapNodeView) => unwrap(writer.api["map-nodes"][":id"].$delete({ param: { id: mapRowId(v.id) }, query })),
    { error: "Failed to delete from the map", revalidate: false, onSuccess: reload },
  );

  // On failure the idea's editor stays open with the text, so the writer can fix it.
  const saveText = useMutation(
    (nodeId: string, text: string) =>
      unwrap(writer.api["map-nodes"][":id"].$patch({ param: { id: mapRowId(nodeId) }, query, json: { text } })),
    { error: "Failed to update the map", revalidate: false, onSuccess: reload },
  );

  const updateEdge = useMutation(
    (edgeId: string, json: { label: string; color: string }) =>
      unwrap(writer.api["map-edges"][":id"].$patch({ param: { id: mapRowId(edgeId) }, query, json })),
    {
      success: { title: "Success", description: "Connection updated" },
      error: "Failed to update the connection",
      revalidate: false,
      onSuccess: reload,
    },
  );

  const removeEdge = useMutation(
    (edgeId: string) => unwrap(writer.api["map-edges"][":id"].$delete({ param: { id: mapRowId(edgeId) }, query })),
    { error: "Failed to delete the connection", revalidate: false, onSuccess: reload },
  );

  return {
    map,
    load,
    pauseLoads,
    resumeLoads,
    loadIfMissed,
    savePositions: savePositions.run,
    setParent: setParent.run,
    addEdge: addEdge.run,
    addNode: addNode.run,
    removeNode: removeNode.run,
    saveText: saveText.run,
    updateEdge: updateEdge.run,
    removeEdge: removeEdge.run,
  };
}

export type MapData = ReturnType<typeof useMapData>;
