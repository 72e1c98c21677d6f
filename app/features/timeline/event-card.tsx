import { GripVertical, History, Pencil, Trash2 } from "lucide-react";
import { DeskFields, DeskView, changedDesk, deskValuesOf } from "~/features/timeline/scene-desk";
import { ForReadersToggle, useForReaders } from "~/features/timeline/for-readers-toggle";
import { type ReactNode, Suspense, lazy, useContext, useRef, useState } from "react";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Input, Label, Textarea } from "~/ui/input";
import { EntityChips, storyTimeText } from "~/features/codex/codex";
import { AttachFileButton, EventAttachments, useAttachmentUpload } from "~/features/timeline/event-attachments";
import { ContinuityWarnings, MentionSuggestions, StoryGap } from "~/features/codex/story-hints";
import { PlotlineChips } from "~/features/plotlines/plotline-context";
import { ReviewContext } from "~/features/review/review-context";
import type { StoryFieldValues } from "~/features/timeline/story-fields";
import { cn } from "~/lib/cn";
import { digits } from "~/lib/digits";
import { SceneStatusBadge, SceneStatusSelect } from "~/features/timeline/scene-status";
import type { SceneStatus } from "../../../db/domain/task-rules";
import { plainTextHtml } from "../../../db/domain/plain-html";
import type { EntityKind } from "../../../db/domain/rules";
import type { ContinuityFlag } from "../../../db/domain/story-analysis";
import type { EntityView } from "../../../worker/services/entities";
import type { EventView } from "../../../worker/services/events";

// The pickers, story-time inputs and tasks are for edit mode only: loaded when a card is first edited (with
// closeInPlace, which keeps the card where the writer's eyes are when the editor closes).
const loadStoryFields = () => import("~/features/timeline/story-fields");
const StoryFields = lazy(() => loadStoryFields().then((m) => ({ default: m.StoryFields })));
const PlotlinePicker = lazy(() => import("~/features/plotlines/plotline-picker").then((m) => ({ default: m.PlotlinePicker })));
const AfterPicker = lazy(() => import("~/features/timeline/after-picker").then((m) => ({ default: m.AfterPicker })));
const SceneTasks = lazy(() => import("~/features/tasks/scene-tasks").then((m) => ({ default: m.SceneTasks })));
// Version history (and the diff library) loads when a card's History is first opened.
const loadHistory = () => import("~/features/co-writing/event-history");
const EventHistoryDialog = lazy(() => loadHistory().then((m) => ({ default: m.EventHistoryDialog })));
// 'Continue this scene' and Describe / Rewrite / Expand: loaded with edit mode too.
// The co-writing editor (Tiptap, Yjs, the event's doc socket): loaded when a card is first edited.
const loadCoEditor = () => import("~/features/co-writing/co-editor");
const CoEditor = lazy(() => loadCoEditor().then((m) => ({ default: m.CoEditor })));
// The text formatted: the server renders it in place; the browser loads the renderer (the editor's parser) after
// hydration, which leaves the server's HTML as it is until then (text arriving meanwhile shows without marks).
const FormattedText = lazy(() =>
  (import.meta.env.SSR ? Promise.resolve() : new Promise((r) => setTimeout(r, 300))).then(() => import("~/ui/formatted-text")),
);

/** Plain prose as its paragraphs at once; formatted text through the renderer's lazy chunk. */
function CardText({ text }: { text: string }) {
  const plain = plainTextHtml(text);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: every text escaped (plain-html.ts)
  if (plain !== null) return <div className="formatted-text" dangerouslySetInnerHTML={{ __html: plain }} />;
  return (
    <Suspense fallback={text.replace(/[\\*_~`#>]/g, "")}>
      <FormattedText text={text} />
    </Suspense>
  );
}

/** The card's comments button (review/card-comments-button.tsx): its own consumer, so the context renders this slot, not the card. */
function CardReviewSlot({ event }: { event: EventView }) {
  const CardReview = useContext(ReviewContext);
  return CardReview ? <CardReview event={event} /> : null;
}

export type SaveResult = { ok: true } | { ok: false };

/**
 * What the card's Save sends (PATCH /api/events/{id}) after the co-writing doc saved the title and
 * content: the story fields only.
 */
export type EventChanges = {
  entityIds: number[];
  povEntityId: number | null;
  /** Sent only when the writer changed it (the form shows the date in words, not what is stored). */
  storyStart?: string | null;
  storyEnd?: string | null;
  storyLabel: string | null;
  /** Sent only when the writer changed the scene's plotlines. */
  plotlineIds?: number[];
  /** Sent only when the writer changed what the scene comes after. */
  after?: number[];
  /** The writer's desk: sent only when changed. */
  synopsis?: string;
  notes?: string;
  /** The scene's status: sent only when changed. */
  status?: SceneStatus | null;
  /** A scene added offline (not yet on the server, no shared doc): its title and text, saved with the change. */
  title?: string;
  content?: string;
};

/** The codex as the cards see it. */
export type CardCodex = {
  entities: EntityView[];
  byId: Map<number, EntityView>;
  onSelect: (entity: EntityView) => void;
  onCreate?: (kind: EntityKind, name: string) => Promise<EntityView | null>;
  /** 'Link Mara?': links a mentioned entry to the event. */
  onLink?: (event: EventView, entity: EntityView) => void;
  /** 'Link all mentions': links every mentioned entry to the event in one write. */
  onLinkAll?: (event: EventView, entities: EntityView[]) => void;
  /** Read an entry as of this card's scene. */
  onRead?: (event: EventView, entity: EntityView) => void;
};

export type StoryHints = {
  gap: string | null;
  flags: ContinuityFlag[];
  mentions: EntityView[];
  /** Characters' ages at this scene (chronological order): entity id → years. */
  ages?: Record<number, number>;
};

const storyValuesOf = (event: EventView): StoryFieldValues => ({
  entityIds: event.entityIds,
  povEntityId: event.povEntityId,
  storyStart: event.storyStartDisplay ?? event.storyStart ?? "",
  storyEnd: event.storyEndDisplay ?? event.storyEnd ?? "",
  storyLabel: event.storyLabel ?? "",
});

type Props = {
  event: EventView;
  canEdit: boolean;
  canDelete: boolean;
  /** Others with this event's editor open: 'Mara is writing here' (null: nobody). */
  writingHere?: string | null;
  dragHandle?: ReactNode;
  /** 'Jump to event' landed here: the card takes focus and is outlined. */
  highlighted?: boolean;
  codex: CardCodex;
  /** What the story model notices about this event (gap, continuity, unlinked mentions). */
  hints?: StoryHints;
  onSave: (changes: EventChanges) => Promise<SaveResult>;
  onDelete: () => void;
  /** Called (debounced by the caller) while the writer types, so others see it live. */
};

/** Content longer than this is clamped in the card with 'Show more' (decided from the text: the same on the server). */
const CLAMP_CHARS = 280;
const CLAMP_LINES = 5;
const isLong = (content: string) => content.length > CLAMP_CHARS || content.split("\n").length > CLAMP_LINES;

export function EventCard({ event, canEdit, canDelete, writingHere, dragHandle, highlighted, codex, hints, onSave, onDelete }: Props) {
  const [editing, setEditing] = useState(false);
  const [expanded, setExpanded] = useState(false);
  const [story, setStory] = useState(() => storyValuesOf(event));
  const [plotlineIds, setPlotlineIds] = useState(event.plotlineIds ?? []);
  const [after, setAfter] = useState(event.after ?? []);
  const [desk, setDesk] = useState(() => deskValuesOf(event));
  const [status, setStatus] = useState<SceneStatus | null>(event.status ?? null);
  const [forReaders, setForReaders] = useForReaders(event);
  const [history, setHistory] = useState(false);
  const [historyMounted, setHistoryMounted] = useState(false);
  const uploads = useAttachmentUpload(event, canEdit);
  // The edit-mode card: the same element stays as the read-mode card when the editor closes.
  const cardRef = useRef<HTMLDivElement>(null);

  function startEdit() {
    setStory(storyValuesOf(event));
    setPlotlineIds(event.plotlineIds ?? []);
    setAfter(event.after ?? []);
    setDesk(deskValuesOf(event));
    setStatus(event.status ?? null);
    setEditing(true);
    void loadCoEditor();
    void loadStoryFields();
  }

  /** After the doc's `saved`: the story fields (the text is saved by the co-writing doc). */
  async function saveStory() {
    const result = await onSave({
      entityIds: story.entityIds,
      povEntityId: story.povEntityId,
      ...(await loadStoryFields()).changedDates(storyValuesOf(event), story),
      storyLabel: story.storyLabel.trim() || null,
      ...([...plotlineIds].sort().join() !== [...(event.plotlineIds ?? [])].sort().join() && { plotlineIds }),
      ...([...after].sort().join() !== [...(event.after ?? [])].sort().join() && { after }),
      ...changedDesk(deskValuesOf(event), desk),
      ...(status !== (event.status ?? null) && { status }),
    });
    return result.ok;
  }

  if (editing && event.id < 0) {
    return (
      <Card className="p-4" data-testid="event-card" data-event-id={event.id}>
        <DraftSceneForm
          event={event}
          onCancel={() => setEditing(false)}
          onSave={async (fields) => {
            const result = await onSave({
              entityIds: event.entityIds,
              povEntityId: event.povEntityId,
              storyLabel: event.storyLabel,
              ...fields,
            });
            if (result.ok) setEditing(false);
          }}
        />
      </Card>
    );
  }

  if (editing) {
    return (
      <Card ref={cardRef} className="space-y-3 p-4" data-testid="event-card" data-event-id={event.id}>
        <Suspense fallback={<p className="text-sm text-stone-600">Opening the editor…</p>}>
          <CoEditor
            event={event}
            onSaveStory={saveStory}
            onClose={() => void loadStoryFields().then((m) => m.closeInPlace(cardRef.current, setEditing))}
          >
            <Suspense fallback={null}>
              <StoryFields
                idPrefix={`event-${event.id}`}
                value={story}
                onChange={setStory}
                entities={codex.entities}
                byId={codex.byId}
                onCreateEntity={codex.onCreate}
                timelineId={event.timelineId}
                eventId={event.id}
              />
              <SceneStatusSelect idPrefix={`event-${event.id}`} value={status} onChange={setStatus} />
              <SceneTasks eventId={event.id} idPrefix={`event-${event.id}`} />
              <PlotlinePicker idPrefix={`event-${event.id}`} value={plotlineIds} onChange={setPlotlineIds} />
              <AfterPicker idPrefix={`event-${event.id}`} event={event} value={after} onChange={setAfter} />
              <DeskFields idPrefix={`event-${event.id}`} value={desk} onChange={setDesk} />
              <ForReadersToggle eventId={event.id} idPrefix={`event-${event.id}`} forReaders={forReaders} onChange={setForReaders} />
            </Suspense>
          </CoEditor>
        </Suspense>
      </Card>
    );
  }

  // Added offline and not yet on the server: no history, comments or files until it is.
  const draft = event.id < 0;
  const storyTime = storyTimeText(event);
  const long = isLong(event.content);
  const contentId = `event-${event.id}-text`;
  return (
    <Card
      className={cn(
        "group @container relative p-4",
        writingHere && "ring-2 ring-amber-400",
        highlighted && !writingHere && "ring-2 ring-brand-500",
        uploads.dropActive && "bg-brand-50 outline-2 outline-offset-2 outline-dashed outline-brand-500",
      )}
      data-testid="event-card"
      data-event-id={event.id}
      data-drop-active={uploads.dropActive || undefined}
      tabIndex={-1}
      {...uploads.dropProps}
    >
      {uploads.dropActive ? (
        <p className="pointer-events-none absolute inset-x-0 bottom-1 text-center text-xs font-medium text-brand-700" aria-hidden="true">
          Drop to attach
        </p>
      ) : null}
      {/*
        A card narrower than 28rem inside (a phone, the horizontal layout, half a desktop column) gives the actions
        a row of their own, so the title and text get the card's width: the card's width decides, not the screen's.
      */}
      <div
        className={cn(
          "grid items-start gap-2",
          dragHandle
            ? "grid-cols-[auto_minmax(0,1fr)] @md:grid-cols-[auto_minmax(0,1fr)_auto]"
            : "grid-cols-[minmax(0,1fr)] @md:grid-cols-[minmax(0,1fr)_auto]",
        )}
      >
        {dragHandle}
        <div className="min-w-0">
          {hints?.gap ? <StoryGap label={hints.gap} /> : null}
          <div className="flex flex-wrap items-center gap-2">
            <h3 dir="auto" className="font-semibold break-words">
              {event.title}
            </h3>
            <SceneStatusBadge status={event.status} />
            {writingHere ? (
              <span className="inline-flex items-center rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-900">
                {writingHere}
              </span>
            ) : null}
            {forReaders ? null : (
              <span className="inline-flex items-center rounded-full bg-stone-100 px-2.5 py-0.5 text-xs font-medium text-stone-700">
                Not for readers
              </span>
            )}
          </div>
          {storyTime ? <p className="mt-0.5 text-xs font-medium text-stone-600">{storyTime}</p> : null}
          {event.wordCount == null ? null : (
            <p className="mt-0.5 text-xs text-stone-600">
              {digits(event.wordCount)} {event.wordCount === 1 ? "word" : "words"}
            </p>
          )}
          <div
            id={contentId}
            className={cn("mt-1 text-sm whitespace-pre-wrap break-words text-stone-700", long && !expanded && "line-clamp-5")}
          >
            <CardText text={event.content} />
          </div>
          <DeskView event={event} />
          {long ? (
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={contentId}
              onClick={() => setExpanded((x) => !x)}
              className="mt-1 text-sm font-medium text-brand-700 hover:underline"
            >
              {expanded ? "Show less" : "Show more"}
            </button>
          ) : null}
          <EntityChips
            ids={event.entityIds}
            povId={event.povEntityId}
            byId={codex.byId}
            onSelect={codex.onSelect}
            onRead={codex.onRead ? (entity) => codex.onRead?.(event, entity) : undefined}
            ages={hints?.ages}
          />
          <PlotlineChips ids={event.plotlineIds ?? []} />
          {hints ? <ContinuityWarnings flags={hints.flags} /> : null}
          {hints && canEdit && codex.onLink ? (
            <MentionSuggestions
              mentions={hints.mentions}
              onLink={(entity) => codex.onLink?.(event, entity)}
              onLinkAll={codex.onLinkAll ? (entities) => codex.onLinkAll?.(event, entities) : undefined}
            />
          ) : null}
          <EventAttachments event={event} canEdit={canEdit} uploads={uploads} />
        </div>
        <div className={cn("flex shrink-0 justify-end gap-1", dragHandle ? "col-span-2 @md:col-span-1" : null)}>
          {draft ? null : <CardReviewSlot event={event} />}
          <Button
            size="icon"
            variant="ghost"
            hidden={draft}
            onClick={() => {
              setHistoryMounted(true);
              setHistory(true);
            }}
            onPointerEnter={() => void loadHistory()}
            aria-label={`History of ${event.title}`}
            title="Version history"
          >
            <History aria-hidden="true" className="h-4 w-4 shrink-0" />
          </Button>
          {canEdit && !draft ? <AttachFileButton event={event} uploads={uploads} /> : null}
          {canEdit ? (
            <Button
              size="icon"
              variant="ghost"
              onClick={startEdit}
              onPointerEnter={() => void loadCoEditor()}
              aria-label={`Edit ${event.title}`}
              title="Edit event"
            >
              <Pencil aria-hidden="true" className="h-4 w-4 shrink-0" />
            </Button>
          ) : null}
          {canDelete ? (
            <Button
              size="icon"
              variant="ghost"
              className="text-red-700 hover:bg-red-50"
              onClick={onDelete}
              aria-label={`Delete ${event.title}`}
              title="Delete event"
            >
              <Trash2 aria-hidden="true" className="h-4 w-4 shrink-0" />
            </Button>
          ) : null}
        </div>
      </div>
      {historyMounted ? (
        <Suspense fallback={null}>
          <EventHistoryDialog event={event} canEdit={canEdit} open={history} onOpenChange={setHistory} />
        </Suspense>
      ) : null}
    </Card>
  );
}

/**
 * Editing a scene added offline: it has no shared doc on the server yet, so its title and text are saved with the
 * queued change (sent once the scene is created).
 */
function DraftSceneForm({
  event,
  onSave,
  onCancel,
}: {
  event: EventView;
  onSave: (fields: { title: string; content: string }) => Promise<void>;
  onCancel: () => void;
}) {
  const [title, setTitle] = useState(event.title);
  const [content, setContent] = useState(event.content);
  const id = `draft-${event.id}`;
  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (!title.trim()) return;
        void onSave({ title: title.trim(), content });
      }}
    >
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-title`}>Title</Label>
        <Input id={`${id}-title`} value={title} maxLength={200} required onChange={(e) => setTitle(e.target.value)} />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={`${id}-content`}>Content</Label>
        <Textarea id={`${id}-content`} value={content} onChange={(e) => setContent(e.target.value)} />
      </div>
      <div className="flex justify-end gap-2">
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!title.trim()}>
          Save Changes
        </Button>
      </div>
    </form>
  );
}

export function DragHandleIcon() {
  return <GripVertical aria-hidden="true" className="h-4 w-4 shrink-0" />;
}
