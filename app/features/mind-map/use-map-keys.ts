import { useEffect, useRef } from "react";
import type { MapNodeView } from "../../../worker/services/mind-map";

type Options = {
  advanced: boolean;
  editingId: string | null;
  selectedId: string | null;
  viewOf: (id: string) => MapNodeView | null;
  startEdit: (v: MapNodeView | null) => void;
  open: (v: MapNodeView | null) => void;
  /** Removes the selected idea, group or connection, like the panels' buttons. */
  deleteSelected: () => void;
};

const typing = "input, textarea, select, [contenteditable='true']";

/** The map's keys beyond xyflow's own; returns the map container's key handler (capture phase). */
export function useMapKeys({ advanced, editingId, selectedId, viewOf, startEdit, open, deleteSelected }: Options) {
  // Delete (Premium editors), on the map or with nothing focused.
  const onDelete = useRef<() => void>(() => {});
  onDelete.current = () => {
    if (advanced && !editingId) deleteSelected();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Delete") return;
      const target = e.target as HTMLElement | null;
      if (target?.closest?.(typing)) return;
      if (target && target !== document.body && !target.closest?.(".storyweave-map")) return;
      onDelete.current();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  // Enter on a node selects it (xyflow); Enter on the selected node opens it.
  // On an idea (Premium editors), Enter on the selected idea or F2 edits its text instead.
  return (e: React.KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (target.closest(typing)) return;
    if (e.key !== "Enter" && e.key !== "F2") return;
    const id = target.closest<HTMLElement>(".react-flow__node")?.dataset.id;
    if (!id) return;
    const v = viewOf(id);
    if (advanced && v?.kind === "idea" && (e.key === "F2" || id === selectedId)) {
      e.preventDefault();
      e.stopPropagation();
      startEdit(v);
    } else if (e.key === "Enter" && id === selectedId) {
      e.preventDefault();
      open(v);
    }
  };
}
