import { Download, Lightbulb, Sparkles, SquareDashed } from "lucide-react";
import { useState } from "react";
import { OFFLINE_MESSAGE, OnlineOnlyButton, OnlineOnlyTextLink } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { Input } from "~/ui/input";
import { mapEdgeLabels, mapLimits } from "../../../db/domain/rules";
import type { MapNodeView } from "../../../worker/services/mind-map";
import { kindText } from "./types";

type ToolsProps = {
  advanced: boolean;
  premium: boolean;
  ideaText: string;
  onIdeaText: (text: string) => void;
  edgeLabel: string;
  onEdgeLabel: (label: string) => void;
  edgeColor: string;
  onEdgeColor: (color: string) => void;
  onAdd: (kind: "idea" | "group") => void;
  onExport: (format: "png" | "svg") => void;
};

/** Editors' tools above the map: ideas, groups, the next edge's label and color, export (Premium). */
export function MapTools({
  advanced,
  premium,
  ideaText,
  onIdeaText,
  edgeLabel,
  onEdgeLabel,
  edgeColor,
  onEdgeColor,
  onAdd,
  onExport,
}: ToolsProps) {
  return (
    <section className="flex flex-wrap items-end gap-2 rounded-lg border border-stone-200 bg-white p-3" aria-label="Map tools">
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          onAdd("idea");
        }}
      >
        <div>
          <label htmlFor="map-idea-text" className="block text-xs font-medium text-stone-700">
            Idea text
          </label>
          <Input
            id="map-idea-text"
            className="h-8 w-48"
            value={ideaText}
            maxLength={mapLimits.text}
            disabled={!advanced}
            onChange={(e) => onIdeaText(e.target.value)}
          />
        </div>
        <OnlineOnlyButton type="submit" size="sm" variant="outline" disabled={!advanced}>
          <Lightbulb aria-hidden="true" className="h-4 w-4" /> Add idea
        </OnlineOnlyButton>
      </form>
      <OnlineOnlyButton type="button" size="sm" variant="outline" disabled={!advanced} onClick={() => onAdd("group")}>
        <SquareDashed aria-hidden="true" className="h-4 w-4" /> Add group
      </OnlineOnlyButton>
      <div>
        <label htmlFor="map-edge-label" className="block text-xs font-medium text-stone-700">
          Edge label
        </label>
        <Input
          id="map-edge-label"
          className="h-8 w-32"
          list="map-edge-labels"
          value={edgeLabel}
          maxLength={mapLimits.label}
          disabled={!advanced}
          onChange={(e) => onEdgeLabel(e.target.value)}
        />
        <datalist id="map-edge-labels">
          {mapEdgeLabels.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor="map-edge-color" className="block text-xs font-medium text-stone-700">
          Edge color
        </label>
        <input
          id="map-edge-color"
          type="color"
          className="h-8 w-12 rounded border border-stone-300"
          value={edgeColor}
          disabled={!advanced}
          onChange={(e) => onEdgeColor(e.target.value)}
        />
      </div>
      <Button type="button" size="sm" variant="outline" disabled={!advanced} onClick={() => onExport("png")}>
        <Download aria-hidden="true" className="h-4 w-4" /> Export PNG
      </Button>
      <Button type="button" size="sm" variant="outline" disabled={!advanced} onClick={() => onExport("svg")}>
        <Download aria-hidden="true" className="h-4 w-4" /> Export SVG
      </Button>
      {!premium ? (
        <p className="w-full text-sm text-stone-700">
          <Sparkles aria-hidden="true" className="mr-1 inline h-4 w-4 text-brand-700" />
          Idea nodes, labeled edges, groups and export are Premium.{" "}
          <OnlineOnlyTextLink to="/upgrade" className="font-medium text-brand-700 underline">
            Upgrade to Premium
          </OnlineOnlyTextLink>
        </p>
      ) : null}
    </section>
  );
}

/**
 * The hint above the map. Offline an editor's map is locked (canvas.tsx): the hint is the reader's one, and a line
 * says why in the words of the other locked controls, 'You're offline' (seen at the map, the header's badge may be
 * scrolled away). The line is a live region kept in place, empty online, so the change is announced; back online it
 * is empty again and the full hint returns.
 */
export function MapHelp({ canEdit, advanced, offline }: { canEdit: boolean; advanced: boolean; offline: boolean }) {
  const writable = canEdit && !offline;
  return (
    <div>
      <p className="text-sm text-stone-600" data-testid="map-help">
        {writable
          ? `Drag nodes to arrange them; draw from a node's lower dot to another node to connect them (an event to a codex entry links them). Keyboard: Tab to a node, Enter to select, arrow keys to move, Enter again to open.${advanced ? " Double-click an idea (or press F2) to edit its text; Delete removes the selected idea, group or connection." : ""}`
          : "Pan and zoom to explore. Tab to a node and press Enter to select it, Enter again to open it."}
      </p>
      {canEdit ? (
        <p role="status" className="text-sm font-medium text-stone-700" data-testid="map-offline">
          {offline ? OFFLINE_MESSAGE : null}
        </p>
      ) : null}
    </div>
  );
}

type SelectedProps = {
  node: MapNodeView;
  groupLabel: string | null;
  /** A codex entry's state as of the map's scene: 'As of The Duel: Loses an eye'. */
  state?: string | null;
  advanced: boolean;
  onEdit: () => void;
  onOpen: () => void;
  onRemove: () => void;
};

export function SelectedNodePanel({ node, groupLabel, state, advanced, onEdit, onOpen, onRemove }: SelectedProps) {
  return (
    <section aria-label="Selected node" className="rounded-lg border border-stone-200 bg-white p-3 text-sm">
      <div className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{kindText(node)}</div>
      <p className="font-medium break-words">{node.label}</p>
      {groupLabel !== null ? <p className="text-stone-600">In group: {groupLabel}</p> : null}
      {state ? (
        <p className="break-words text-stone-700" data-testid="map-selected-state">
          {state}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        {advanced && node.kind === "idea" ? (
          <OnlineOnlyButton size="sm" variant="outline" onClick={onEdit}>
            Edit text
          </OnlineOnlyButton>
        ) : null}
        {node.kind === "event" ? (
          <Button size="sm" onClick={onOpen}>
            Open event
          </Button>
        ) : null}
        {node.kind === "entity" ? (
          <Button size="sm" onClick={onOpen}>
            Open in codex
          </Button>
        ) : null}
        {advanced && (node.kind === "idea" || node.kind === "group") ? (
          <OnlineOnlyButton size="sm" variant="destructive" onClick={onRemove}>
            Delete from map
          </OnlineOnlyButton>
        ) : null}
      </div>
    </section>
  );
}

type EdgeProps = {
  edge: { id: string; label: string; color: string | null };
  onSave: (id: string, json: { label: string; color: string }) => void;
  onDelete: (id: string) => void;
};

export function EdgePanel({ edge, onSave, onDelete }: EdgeProps) {
  const [label, setLabel] = useState(edge.label);
  const [color, setColor] = useState(edge.color ?? "#57534e");
  return (
    <section aria-label="Selected connection" className="rounded-lg border border-stone-200 bg-white p-3 text-sm">
      <div className="text-xs font-semibold tracking-wide text-stone-600 uppercase">Connection</div>
      <form
        className="mt-2 flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          onSave(edge.id, { label, color });
        }}
      >
        <div>
          <label htmlFor="map-selected-edge-label" className="block text-xs font-medium text-stone-700">
            Connection label
          </label>
          <Input
            id="map-selected-edge-label"
            className="h-8 w-40"
            list="map-edge-labels"
            value={label}
            maxLength={mapLimits.label}
            onChange={(e) => setLabel(e.target.value)}
          />
        </div>
        <div>
          <label htmlFor="map-selected-edge-color" className="block text-xs font-medium text-stone-700">
            Connection color
          </label>
          <input
            id="map-selected-edge-color"
            type="color"
            className="h-8 w-12 rounded border border-stone-300"
            value={color}
            onChange={(e) => setColor(e.target.value)}
          />
        </div>
        <OnlineOnlyButton type="submit" size="sm">
          Save connection
        </OnlineOnlyButton>
        <OnlineOnlyButton type="button" size="sm" variant="destructive" onClick={() => onDelete(edge.id)}>
          Delete connection
        </OnlineOnlyButton>
      </form>
    </section>
  );
}
