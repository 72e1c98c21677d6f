import { Pencil, Trash2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import type { CodexApi } from "~/features/codex/codex-request";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { Label, Textarea } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { shareParam, unwrap } from "~/lib/client";
import type { EntityView } from "../../../worker/services/entities";
import { progressionsAsOf as asOfScene } from "../../../db/domain/progressions";
import { useProgressionsTick } from "./progressions-changed";

/** A scene the progression can start from, in story order. */
export type SceneOption = { id: number; title: string };
export type Progression = { id: number; entityId: number; eventId: number; text: string };

/** The entry's progressions in story order (the scenes' order); any whose scene is not listed go last. */
export function inStoryOrder<P extends { id: number; eventId: number }>(list: P[], scenes: SceneOption[]) {
  const at = new Map(scenes.map((s, i) => [s.id, i]));
  return [...list].sort((a, b) => (at.get(a.eventId) ?? scenes.length) - (at.get(b.eventId) ?? scenes.length) || a.id - b.id);
}

/** The entry as of a scene: its progressions from scenes up to and including that one, in story order (one rule with the story bible). */
export function progressionsAsOf<P extends { id: number; eventId: number }>(list: P[], scenes: SceneOption[], sceneId: number) {
  return asOfScene(list, scenes, sceneId);
}

const selectClass = "h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm";

/** 'From this scene on' (DESIGN.md §12): what changes about an entry from a scene of its timeline on. */
export function ProgressionsSection({
  entityId,
  scenes,
  canEdit,
  ...api
}: CodexApi & { entityId: number; scenes: SceneOption[]; canEdit: boolean }) {
  const id = useId();
  const [list, setList] = useState<Progression[] | null>(null);
  const [sceneId, setSceneId] = useState("");
  const [text, setText] = useState("");
  const [editing, setEditing] = useState<{ id: number; sceneId: string; text: string } | null>(null);
  const { client, shareCode } = api;
  const tick = useProgressionsTick();
  // Not queued with no network: adding, saving and deleting say 'You're offline'.
  const { lock, note } = useOfflineLock();

  // Another entry: its list shows 'Loading…' until fetched (a refetch of the same entry keeps the list on screen).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entry's id is the signal to clear
  useEffect(() => {
    setList(null);
  }, [entityId]);
  useEffect(() => {
    let live = true;
    void tick;
    void unwrap(client.api.entities[":id"].progressions.$get({ param: { id: String(entityId) }, query: shareParam(shareCode) }))
      .then((rows) => live && setList(rows))
      .catch(() => live && setList((now) => now ?? []));
    return () => {
      live = false;
    };
  }, [client, shareCode, entityId, tick]);

  const add = useMutation(
    (fields: { eventId: number; text: string }) =>
      unwrap(
        client.api.entities[":id"].progressions.$post({ param: { id: String(entityId) }, query: shareParam(shareCode), json: fields }),
      ),
    {
      success: { title: "Success", description: "Progression added" },
      error: "Failed to add progression",
      revalidate: false,
      onSuccess: (row) => {
        setList((now) => [...(now ?? []), row]);
        setText("");
      },
    },
  );
  const update = useMutation(
    (progressionId: number, fields: { eventId?: number; text?: string }) =>
      unwrap(client.api.progressions[":id"].$patch({ param: { id: String(progressionId) }, query: shareParam(shareCode), json: fields })),
    {
      success: { title: "Success", description: "Progression updated" },
      error: "Failed to update progression",
      revalidate: false,
      onSuccess: (row) => {
        setList((now) => (now ?? []).map((p) => (p.id === row.id ? row : p)));
        setEditing(null);
      },
    },
  );
  const remove = useMutation(
    (progressionId: number) =>
      unwrap(client.api.progressions[":id"].$delete({ param: { id: String(progressionId) }, query: shareParam(shareCode) })),
    {
      success: { title: "Success", description: "Progression deleted" },
      error: "Failed to delete progression",
      revalidate: false,
      onSuccess: (_, progressionId) => setList((now) => (now ?? []).filter((p) => p.id !== progressionId)),
    },
  );

  const titleOf = new Map(scenes.map((s) => [s.id, s.title]));
  const sceneTitle = (eventId: number) => titleOf.get(eventId) ?? "A scene not listed";
  const ordered = list ? inStoryOrder(list, scenes) : [];
  // A scene not chosen sends 0: the server answers 'Choose the scene it starts from'.
  const sceneNumber = (value: string) => Number(value) || 0;

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2 border-t border-stone-200 pt-3">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        From this scene on
      </h3>
      {list === null ? (
        <p className="text-sm text-stone-600">Loading…</p>
      ) : ordered.length === 0 ? (
        <p className="text-sm text-stone-600">Nothing changes yet.{canEdit ? " Add what changes about this entry from a scene on." : ""}</p>
      ) : (
        <ul aria-label="Progressions" className="space-y-2">
          {ordered.map((p) =>
            editing?.id === p.id ? (
              <li key={p.id} className="space-y-2 rounded-md border border-stone-200 p-2" data-testid="progression">
                <Label htmlFor={`${id}-edit-scene`}>Scene</Label>
                <select
                  id={`${id}-edit-scene`}
                  className={selectClass}
                  value={editing.sceneId}
                  onChange={(e) => setEditing({ ...editing, sceneId: e.target.value })}
                >
                  {scenes.map((s) => (
                    <option key={s.id} value={String(s.id)}>
                      {s.title}
                    </option>
                  ))}
                </select>
                <Label htmlFor={`${id}-edit-text`}>What changes</Label>
                <Textarea
                  id={`${id}-edit-text`}
                  value={editing.text}
                  maxLength={2000}
                  onChange={(e) => setEditing({ ...editing, text: e.target.value })}
                />
                <div className="flex justify-end gap-2">
                  <Button type="button" size="sm" variant="outline" onClick={() => setEditing(null)} disabled={update.pending}>
                    Cancel
                  </Button>
                  <Button
                    type="button"
                    size="sm"
                    disabled={update.pending}
                    onClick={() => void update.run(p.id, { eventId: sceneNumber(editing.sceneId), text: editing.text })}
                    {...lock}
                  >
                    Save progression
                  </Button>
                </div>
              </li>
            ) : (
              <li key={p.id} className="flex items-start gap-2 text-sm" data-testid="progression">
                <p className="min-w-0 flex-1 break-words">
                  <span className="font-medium">From "{sceneTitle(p.eventId)}" on:</span> {p.text}
                </p>
                {canEdit ? (
                  <>
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      className="h-8 w-8"
                      aria-label={`Edit the progression from "${sceneTitle(p.eventId)}"`}
                      onClick={() => setEditing({ id: p.id, sceneId: String(p.eventId), text: p.text })}
                      {...lock}
                    >
                      <Pencil aria-hidden="true" className="h-4 w-4" />
                    </Button>
                    <Button
                      type="button"
                      size="icon"
                      variant="ghost"
                      className="h-8 w-8 text-red-700 hover:bg-red-50"
                      aria-label={`Delete the progression from "${sceneTitle(p.eventId)}"`}
                      disabled={remove.pending}
                      onClick={() => void remove.run(p.id)}
                      {...lock}
                    >
                      <Trash2 aria-hidden="true" className="h-4 w-4" />
                    </Button>
                  </>
                ) : null}
              </li>
            ),
          )}
        </ul>
      )}
      {canEdit ? (
        <div className="space-y-2">
          <Label htmlFor={`${id}-scene`}>From scene</Label>
          <select id={`${id}-scene`} className={selectClass} value={sceneId} onChange={(e) => setSceneId(e.target.value)}>
            <option value="">Choose a scene…</option>
            {scenes.map((s) => (
              <option key={s.id} value={String(s.id)}>
                {s.title}
              </option>
            ))}
          </select>
          <Label htmlFor={`${id}-text`}>What changes</Label>
          <Textarea
            id={`${id}-text`}
            value={text}
            maxLength={2000}
            placeholder="e.g. Loses her left hand"
            onChange={(e) => setText(e.target.value)}
          />
          <div className="flex items-center justify-end gap-2">
            {note}
            <Button
              type="button"
              size="sm"
              disabled={add.pending}
              onClick={() => void add.run({ eventId: sceneNumber(sceneId), text })}
              {...lock}
            >
              Add progression
            </Button>
          </div>
        </div>
      ) : null}
    </section>
  );
}

/**
 * An entry read at a scene (DESIGN.md §12): its description and what changed about it in the scenes up to and
 * including this one, in story order, under 'As of {scene title}'. Read access is enough.
 */
export function EntryAsOfDialog({
  reading,
  scenes,
  onClose,
  ...api
}: CodexApi & { reading: { entity: EntityView; sceneId: number } | null; scenes: SceneOption[]; onClose: () => void }) {
  const [list, setList] = useState<Progression[] | null>(null);
  const { client, shareCode } = api;
  const entityId = reading?.entity.id;
  const tick = useProgressionsTick();
  // Another entry: its list shows 'Loading…' until fetched (a refetch of the same entry keeps the list on screen).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the entry's id is the signal to clear
  useEffect(() => {
    setList(null);
  }, [entityId]);
  useEffect(() => {
    if (entityId === undefined) return;
    let live = true;
    void tick;
    void unwrap(client.api.entities[":id"].progressions.$get({ param: { id: String(entityId) }, query: shareParam(shareCode) }))
      .then((rows) => live && setList(rows))
      .catch(() => live && setList((now) => now ?? []));
    return () => {
      live = false;
    };
  }, [client, shareCode, entityId, tick]);
  const scene = scenes.find((s) => s.id === reading?.sceneId);
  const titleOf = new Map(scenes.map((s) => [s.id, s.title]));
  const changes = reading && list ? progressionsAsOf(list, scenes, reading.sceneId) : [];
  return (
    <Dialog
      open={reading !== null}
      onOpenChange={(open) => !open && onClose()}
      title={reading?.entity.name ?? ""}
      description={scene ? `As of ${scene.title}` : undefined}
    >
      <div className="space-y-3 text-sm" data-testid="entry-as-of">
        {reading?.entity.description ? (
          <p className="break-words whitespace-pre-wrap">{reading.entity.description}</p>
        ) : (
          <p className="text-stone-600">No description.</p>
        )}
        {list === null ? (
          <p className="text-stone-600">Loading…</p>
        ) : changes.length ? (
          <ul aria-label="Changes so far" className="space-y-1">
            {changes.map((p) => (
              <li key={p.id} className="break-words">
                <span className="font-medium">From "{titleOf.get(p.eventId)}" on:</span> {p.text}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </Dialog>
  );
}
