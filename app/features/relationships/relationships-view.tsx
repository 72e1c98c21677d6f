import "@xyflow/react/dist/style.css";
import { Background, Controls, type Edge, MarkerType, ReactFlow, ReactFlowProvider } from "@xyflow/react";
import { Pencil, Trash2 } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { ColorDot } from "~/features/codex/codex";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { useOffline } from "~/features/offline/use-offline";
import { AsOfScenePicker } from "~/features/story-time/as-of-scene-picker";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Input, Label } from "~/ui/input";
import { shareParam, unwrap } from "~/lib/client";
import { cn } from "~/lib/cn";
import { useMutation } from "~/lib/use-mutation";
import type { EntityView } from "../../../worker/services/entities";
import { familyTreeLayout } from "./family-tree-layout";
import { type EntryNode, RefitOnResize, type WebEdge, edgeTypes, nodeTypes } from "./flow-parts";
import {
  type Relationship,
  type SceneOption,
  circleLayout,
  familyLinks,
  joinedEntries,
  relationshipsAsOf,
  webLinks,
} from "./relationship-web";

// The Relationships view (README "A codex that changes over time"; DESIGN.md §12): the web of relationships
// between codex entries, and the family tree of the parent/child ones, each as of a chosen scene. Loaded only
// when opened (React.lazy in timeline-body.tsx), with xyflow, dagre and xyflow's CSS.

export type RelationshipsViewProps = {
  /** The codex: the entries a relationship joins (and their colours). */
  entities: EntityView[];
  /** The timeline's scenes in story order: 'As of scene' and 'Since scene'. */
  scenes: SceneOption[];
  /** Bumped whenever the room says data changed: the relationships are fetched again. */
  syncTick: number;
};

type Mode = "web" | "tree";
const NODE_W = 160;
const NODE_H = 44;
const selectClass = "h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm";

export default function RelationshipsView({ entities, scenes, syncTick }: RelationshipsViewProps) {
  const { client, shareCode, canEdit, timelineId } = useTimelineSession();
  const [list, setList] = useState<Relationship[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [mode, setMode] = useState<Mode>("web");
  const [asOf, setAsOf] = useState<number | null>(null);

  useEffect(() => {
    let live = true;
    void syncTick;
    void unwrap(client.api.timelines[":id"].relationships.$get({ param: { id: String(timelineId) }, query: shareParam(shareCode) }))
      .then((rows) => {
        if (!live) return;
        setList(rows);
        setFailed(false);
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [client, shareCode, timelineId, syncTick]);

  const byId = useMemo(() => new Map(entities.map((e) => [e.id, e])), [entities]);
  // Only relationships between entries still in the codex (one just deleted takes its relationships with it).
  const known = useMemo(() => (list ?? []).filter((r) => byId.has(r.fromId) && byId.has(r.toId)), [list, byId]);
  const shown = useMemo(() => relationshipsAsOf(known, scenes, asOf), [known, scenes, asOf]);
  const later = known.length - shown.length;
  const sceneTitle = new Map(scenes.map((s) => [s.id, s.title]));
  const asOfTitle = asOf === null ? null : (sceneTitle.get(asOf) ?? null);

  return (
    <Card className="space-y-4 p-4" data-testid="relationships-view">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h3 className="text-base font-semibold">Relationships</h3>
        <fieldset className="inline-flex rounded-md border border-stone-300 bg-white p-0.5">
          <legend className="sr-only">Show</legend>
          {(["web", "tree"] as const).map((m) => (
            <button
              key={m}
              type="button"
              aria-pressed={mode === m}
              onClick={() => setMode(m)}
              className={cn(
                "rounded px-2.5 py-1 text-sm font-medium",
                mode === m ? "bg-brand-600 text-white" : "text-stone-700 hover:bg-stone-100",
              )}
            >
              {m === "web" ? "Web" : "Family tree"}
            </button>
          ))}
        </fieldset>
        <AsOfScenePicker scenes={scenes} value={asOf} onChange={setAsOf} />
      </div>

      {failed && list === null ? (
        <p className="text-sm text-red-800">The relationships could not be loaded. Reload the page to try again.</p>
      ) : list === null ? (
        <p className="text-sm text-stone-600">Loading relationships…</p>
      ) : (
        <>
          <Graph mode={mode} entities={entities} shown={shown} />
          {later > 0 && asOfTitle ? (
            <p className="text-sm text-stone-600" data-testid="relationships-later">
              {later === 1 ? "1 relationship starts" : `${later} relationships start`} after {asOfTitle}.
            </p>
          ) : null}
          <RelationshipList
            shown={shown}
            byId={byId}
            sceneTitle={sceneTitle}
            canEdit={canEdit}
            onChanged={(row) => setList((now) => (now ?? []).map((r) => (r.id === row.id ? row : r)))}
            onDeleted={(rid) => setList((now) => (now ?? []).filter((r) => r.id !== rid))}
          />
        </>
      )}
      {canEdit && list !== null ? (
        <AddRelationship entities={entities} scenes={scenes} onAdded={(row) => setList((now) => [...(now ?? []), row])} />
      ) : null}
    </Card>
  );
}

/** The web (every relationship shown) or the family tree (the parent/child ones, generations top-down). */
function Graph({ mode, entities, shown }: { mode: Mode; entities: EntityView[]; shown: Relationship[] }) {
  const { nodes, edges, empty } = useMemo(() => {
    if (mode === "tree") {
      const links = familyLinks(shown);
      const members = joinedEntries(
        entities,
        links.map((l) => l.relationship),
      );
      const at = familyTreeLayout(
        members.map((e) => e.id),
        links,
        NODE_W,
        NODE_H,
      );
      return {
        nodes: members.map((e) => entryNode(e, at.get(e.id))),
        edges: links.map(
          (l): Edge => ({
            id: `tree-${l.relationship.id}`,
            source: String(l.parentId),
            target: String(l.childId),
            type: "smoothstep",
            markerEnd: { type: MarkerType.ArrowClosed },
          }),
        ),
        empty:
          members.length === 0
            ? "No parent or child relationships here. Label one 'parent of' or 'child of' to grow the family tree."
            : null,
      };
    }
    const members = joinedEntries(entities, shown);
    const at = circleLayout(
      members.map((e) => e.id),
      NODE_W,
      NODE_H,
    );
    return {
      nodes: members.map((e) => entryNode(e, at.get(e.id))),
      edges: webLinks(shown).map(
        (l, _, all): WebEdge => ({
          id: `web-${l.fromId}-${l.toId}`,
          type: "web",
          source: String(l.fromId),
          target: String(l.toId),
          label: l.label,
          markerEnd: { type: MarkerType.ArrowClosed },
          data: { bend: all.some((o) => o.fromId === l.toId && o.toId === l.fromId) },
        }),
      ),
      empty: members.length === 0 ? "No relationships here yet." : null,
    };
  }, [mode, entities, shown]);

  if (empty) return <p className="rounded-md border border-dashed border-stone-300 p-6 text-center text-sm text-stone-600">{empty}</p>;
  // A new picture (mode, scene, data) is a new flow: it fits itself to the view again.
  const key = `${mode}:${nodes.map((n) => n.id).join(",")}:${edges.map((e) => `${e.id}=${String(e.label ?? "")}`).join(",")}`;
  return (
    <div
      className="h-[20rem] overflow-hidden sm:h-[26rem] rounded-md border border-stone-200 bg-stone-50"
      data-testid={mode === "web" ? "relationship-web" : "family-tree"}
    >
      <ReactFlowProvider key={key}>
        <ReactFlow
          defaultNodes={nodes}
          defaultEdges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          nodesConnectable={false}
          edgesFocusable={false}
          deleteKeyCode={null}
          fitView
          fitViewOptions={{ padding: 0.2, maxZoom: 1.2 }}
          minZoom={0.2}
          proOptions={{ hideAttribution: true }}
          aria-label={mode === "web" ? "Relationship web" : "Family tree"}
        >
          <Background gap={24} color="#e7e5e4" />
          <Controls showInteractive={false} />
          <RefitOnResize padding={0.2} />
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}

function entryNode(entity: EntityView, at: { x: number; y: number } | undefined): EntryNode {
  return {
    id: String(entity.id),
    type: "entry",
    position: at ?? { x: 0, y: 0 },
    data: { name: entity.name, color: entity.color },
    style: { width: NODE_W, height: NODE_H },
  };
}

/** The plain list (screen readers, phones): each relationship in words, with an editor's Edit and Delete. */
function RelationshipList({
  shown,
  byId,
  sceneTitle,
  canEdit,
  onChanged,
  onDeleted,
}: {
  shown: Relationship[];
  byId: Map<number, EntityView>;
  sceneTitle: Map<number, string>;
  canEdit: boolean;
  onChanged: (row: Relationship) => void;
  onDeleted: (id: number) => void;
}) {
  const { client, shareCode } = useTimelineSession();
  const id = useId();
  const offline = useOffline();
  const [editing, setEditing] = useState<{ id: number; label: string } | null>(null);
  const update = useMutation(
    (relationshipId: number, label: string) =>
      unwrap(
        client.api.relationships[":id"].$patch({ param: { id: String(relationshipId) }, query: shareParam(shareCode), json: { label } }),
      ),
    {
      success: { title: "Success", description: "Relationship updated" },
      error: "Failed to update relationship",
      revalidate: false,
      onSuccess: (row) => {
        onChanged(row);
        setEditing(null);
      },
    },
  );
  const remove = useMutation(
    (relationshipId: number) =>
      unwrap(client.api.relationships[":id"].$delete({ param: { id: String(relationshipId) }, query: shareParam(shareCode) })),
    {
      success: { title: "Success", description: "Relationship deleted" },
      error: "Failed to delete relationship",
      revalidate: false,
      onSuccess: (_, relationshipId) => onDeleted(relationshipId),
    },
  );
  if (shown.length === 0) return null;
  const words = (r: Relationship) => `${byId.get(r.fromId)?.name} ${r.label} ${byId.get(r.toId)?.name}`;
  return (
    <ul aria-label="Relationships" className="divide-y divide-stone-200 rounded-md border border-stone-200">
      {shown.map((r) =>
        editing?.id === r.id ? (
          <li key={r.id} className="space-y-2 p-2" data-testid="relationship">
            <Label htmlFor={`${id}-edit`}>Label</Label>
            <Input
              id={`${id}-edit`}
              value={editing.label}
              maxLength={100}
              onChange={(e) => setEditing({ ...editing, label: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !offline) void update.run(r.id, editing.label);
              }}
            />
            <div className="flex justify-end gap-2">
              <Button type="button" size="sm" variant="outline" onClick={() => setEditing(null)} disabled={update.pending}>
                Cancel
              </Button>
              <OnlineOnlyButton type="button" size="sm" disabled={update.pending} onClick={() => void update.run(r.id, editing.label)}>
                Save relationship
              </OnlineOnlyButton>
            </div>
          </li>
        ) : (
          <li key={r.id} className="flex items-center gap-2 p-2 text-sm" data-testid="relationship">
            <p className="min-w-0 flex-1 break-words">
              <span className="inline-flex items-center gap-1 font-medium">
                <ColorDot color={byId.get(r.fromId)?.color ?? "#78716c"} />
                {byId.get(r.fromId)?.name}
              </span>{" "}
              {r.label}{" "}
              <span className="inline-flex items-center gap-1 font-medium">
                <ColorDot color={byId.get(r.toId)?.color ?? "#78716c"} />
                {byId.get(r.toId)?.name}
              </span>
              {r.sinceEventId !== null ? (
                <span className="text-stone-600"> (from "{sceneTitle.get(r.sinceEventId) ?? "a scene not listed"}" on)</span>
              ) : null}
            </p>
            {canEdit ? (
              <>
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  className="h-8 w-8"
                  aria-label={`Edit "${words(r)}"`}
                  onClick={() => setEditing({ id: r.id, label: r.label })}
                >
                  <Pencil aria-hidden="true" className="h-4 w-4" />
                </Button>
                <OnlineOnlyButton
                  type="button"
                  size="icon"
                  variant="ghost"
                  className="h-8 w-8 text-red-700 hover:bg-red-50"
                  aria-label={`Delete "${words(r)}"`}
                  disabled={remove.pending}
                  onClick={() => void remove.run(r.id)}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </OnlineOnlyButton>
              </>
            ) : null}
          </li>
        ),
      )}
    </ul>
  );
}

/** An editor's 'Add relationship': from, label, to, and the scene it starts from (optional). */
function AddRelationship({
  entities,
  scenes,
  onAdded,
}: {
  entities: EntityView[];
  scenes: SceneOption[];
  onAdded: (row: Relationship) => void;
}) {
  const { client, shareCode, timelineId } = useTimelineSession();
  const id = useId();
  const [fromId, setFromId] = useState("");
  const [toId, setToId] = useState("");
  const [label, setLabel] = useState("");
  const [since, setSince] = useState("");
  const add = useMutation(
    (json: { fromId: number; toId: number; label: string; sinceEventId: number | null }) =>
      unwrap(client.api.timelines[":id"].relationships.$post({ param: { id: String(timelineId) }, query: shareParam(shareCode), json })),
    {
      success: { title: "Success", description: "Relationship added" },
      error: "Failed to add relationship",
      revalidate: false,
      onSuccess: (row) => {
        onAdded(row);
        setLabel("");
      },
    },
  );
  if (entities.length < 2) {
    return <p className="text-sm text-stone-600">Add two codex entries to relate them.</p>;
  }
  const entryOptions = entities.map((e) => (
    <option key={e.id} value={e.id}>
      {e.name}
    </option>
  ));
  // An entry not chosen sends 0: the server answers 'Choose both entries'.
  const submit = () =>
    void add.run({ fromId: Number(fromId) || 0, toId: Number(toId) || 0, label, sinceEventId: since ? Number(since) : null });
  return (
    <form
      aria-labelledby={`${id}-title`}
      className="space-y-2 border-t border-stone-200 pt-3"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h4 id={`${id}-title`} className="text-sm font-semibold">
        Add relationship
      </h4>
      <div className="grid gap-2 sm:grid-cols-3">
        <div className="space-y-1">
          <Label htmlFor={`${id}-from`}>From</Label>
          <select id={`${id}-from`} className={selectClass} value={fromId} onChange={(e) => setFromId(e.target.value)}>
            <option value="">Choose an entry…</option>
            {entryOptions}
          </select>
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-label`}>Label</Label>
          <Input id={`${id}-label`} value={label} maxLength={100} placeholder="e.g. sister of" onChange={(e) => setLabel(e.target.value)} />
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-to`}>To</Label>
          <select id={`${id}-to`} className={selectClass} value={toId} onChange={(e) => setToId(e.target.value)}>
            <option value="">Choose an entry…</option>
            {entryOptions}
          </select>
        </div>
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-since`}>Since scene</Label>
        <select id={`${id}-since`} className={selectClass} value={since} onChange={(e) => setSince(e.target.value)}>
          <option value="">From the start</option>
          {scenes.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </div>
      <div className="flex justify-end">
        <OnlineOnlyButton type="submit" size="sm" disabled={add.pending}>
          Add relationship
        </OnlineOnlyButton>
      </div>
    </form>
  );
}
