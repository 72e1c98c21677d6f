import { Handle, type NodeProps, Position } from "@xyflow/react";
import { createContext, memo, useContext, useState } from "react";
import { cn } from "~/lib/cn";
import { mapLimits } from "../../../db/domain/rules";
import { type MapFlowNode, NODE_W, kindText } from "./types";

/** Inline editing of an idea's text (Premium editors): which node is being edited, and how to finish. */
export type EditState = { editingId: string | null; save: (id: string, text: string) => void; cancel: () => void };
export const EditContext = createContext<EditState>({ editingId: null, save: () => {}, cancel: () => {} });
/** Each codex entry's state as of the map's chosen scene (by entry id): its latest progression then. */
export const StatesContext = createContext<ReadonlyMap<number, { text: string; startsHere: boolean }>>(new Map());

function IdeaTextEditor({ id, initial }: { id: string; initial: string }) {
  const { save, cancel } = useContext(EditContext);
  const [text, setText] = useState(initial);
  return (
    <input
      // biome-ignore lint/a11y/noAutofocus: the writer asked to edit this text (double-click, Enter or F2)
      autoFocus
      aria-label="Idea text (Enter saves, Escape cancels)"
      className="nodrag nopan nowheel w-full rounded border border-stone-300 px-1 text-sm font-medium text-ink"
      value={text}
      maxLength={mapLimits.text}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === "Enter") {
          e.preventDefault();
          save(id, text);
        } else if (e.key === "Escape") {
          e.preventDefault();
          cancel();
        }
      }}
      onBlur={cancel}
    />
  );
}

const StoryNode = memo(function StoryNode({ id, data, selected, isConnectable }: NodeProps<MapFlowNode>) {
  const v = data.view;
  const { editingId } = useContext(EditContext);
  const states = useContext(StatesContext);
  const state = v.kind === "entity" && v.refId ? states.get(v.refId) : undefined;
  const accent = v.color ?? (v.kind === "idea" ? "#f59e0b" : "#78716c");
  return (
    <div
      className={cn(
        "rounded-lg border-2 bg-white px-3 py-2 text-sm shadow-sm",
        v.kind === "idea" && "bg-amber-50",
        v.kind === "entity" && "rounded-full",
        selected && "ring-2 ring-brand-600 ring-offset-2",
      )}
      style={{ borderColor: accent, width: NODE_W }}
    >
      <Handle type="target" position={Position.Top} isConnectable={isConnectable} />
      <div className="text-[10px] font-semibold tracking-wide text-stone-600 uppercase">{kindText(v)}</div>
      {editingId === id ? <IdeaTextEditor id={id} initial={v.label} /> : <div className="truncate font-medium text-ink">{v.label}</div>}
      {v.when ? <div className="truncate text-xs text-stone-600">{v.when}</div> : null}
      {state ? (
        <div className="truncate text-xs text-brand-800" title={state.text} data-testid="map-state">
          {state.text}
        </div>
      ) : null}
      <Handle type="source" position={Position.Bottom} isConnectable={isConnectable} />
    </div>
  );
});

const GroupNode = memo(function GroupNode({ data, selected }: NodeProps<MapFlowNode>) {
  const v = data.view;
  return (
    <div
      className={cn("h-full w-full rounded-xl border-2 border-dashed bg-stone-50/60 p-2", selected && "ring-2 ring-brand-600")}
      style={{ borderColor: v.color ?? "#a8a29e", width: v.width ?? 360, height: v.height ?? 240 }}
    >
      <div className="text-xs font-semibold text-stone-700">{v.label}</div>
    </div>
  );
});

// "mapGroup", not "group": xyflow styles its own "group" type with a second border and background.
export const nodeTypes = { story: StoryNode, mapGroup: GroupNode };
