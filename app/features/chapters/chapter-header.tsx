import { ArrowDown, ArrowUp, ChevronDown, ChevronRight, Settings2 } from "lucide-react";
import { memo, useId, useState } from "react";
import { cn } from "~/lib/cn";
import { Button } from "~/ui/button";
import { ConfirmDialog } from "~/ui/dialog";
import type { ChapterContext } from "./chapter-context";
import { useChapterActions } from "./chapter-queries";
import { toggleCollapsed } from "./collapsed-chapters";
import { type ChapterView, chapterTitleError, parseTarget, type Scene, wordsText } from "./chapters-api";
import { digits } from "~/lib/digits";
import { ProgressBar } from "./progress-bar";

const sumWords = (scenes: Scene[]) => scenes.reduce((n, s) => n + (s.wordCount ?? 0), 0);

/**
 * A chapter's header row: its title, scene and word counts and target bar, collapse, and for editors its
 * actions (rename, target, move, move a scene here; delete for the owner). Alt+Arrow on the focused header
 * moves the chapter; so does dragging it onto another chapter's header.
 */
export const ChapterHeader = memo(function ChapterHeader({
  context,
  chapter,
  index,
  count,
  scenes,
  all,
  collapsed,
  canEdit,
  canDelete,
}: {
  context: ChapterContext;
  /** null: the scenes in no chapter. */
  chapter: ChapterView | null;
  /** Its place among the chapters shown (from 0), and how many there are. */
  index: number;
  count: number;
  scenes: Scene[];
  all: Scene[];
  collapsed: boolean;
  canEdit: boolean;
  canDelete: boolean;
}) {
  const [menu, setMenu] = useState(false);
  const [dropping, setDropping] = useState(false);
  const panelId = useId();
  const actions = useChapterActions();
  const words = scenes.length || !chapter ? sumWords(scenes) : chapter.wordCount;
  const target = chapter?.targetWords;
  const counts = `${scenes.length} ${scenes.length === 1 ? "scene" : "scenes"} · ${target ? `${digits(words)} of ${wordsText(target)}` : wordsText(words)}`;
  if (!chapter) {
    return (
      <div className="mb-3 flex items-baseline gap-3 border-b border-stone-200 pb-2">
        <h3 className="text-base font-semibold text-stone-700">No chapter</h3>
        <p className="text-sm text-stone-600">{counts}</p>
      </div>
    );
  }
  const editable = canEdit;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the header is focusable for Alt+Arrow; its buttons do the same
    <div
      data-testid="chapter-header"
      tabIndex={editable ? 0 : undefined}
      draggable={editable}
      onKeyDown={(e) => {
        if (!editable || !e.altKey || e.target !== e.currentTarget) return;
        const step = e.key === "ArrowUp" ? -1 : e.key === "ArrowDown" ? 1 : 0;
        if (!step) return;
        e.preventDefault();
        void actions.move(chapter.id, step);
      }}
      onDragStart={(e) => {
        e.dataTransfer.setData("application/x-storyweave-chapter", String(chapter.id));
        e.dataTransfer.effectAllowed = "move";
      }}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes("application/x-storyweave-chapter")) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(e) => {
        setDropping(false);
        const id = Number(e.dataTransfer.getData("application/x-storyweave-chapter"));
        if (id && id !== chapter.id) {
          e.preventDefault();
          void actions.moveTo(id, index);
        }
      }}
      className={cn(
        "mb-3 rounded-lg border border-stone-200 bg-stone-50 px-3 py-2 focus-visible:outline-2 focus-visible:outline-brand-600",
        dropping && "border-brand-500 bg-brand-50",
      )}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <button
          type="button"
          aria-expanded={!collapsed}
          aria-label={`${collapsed ? "Expand" : "Collapse"} ${chapter.title}`}
          onClick={() => toggleCollapsed(context.timelineId, chapter.id)}
          className="rounded p-1 text-stone-700 hover:bg-stone-200"
        >
          {collapsed ? <ChevronRight aria-hidden="true" className="h-4 w-4" /> : <ChevronDown aria-hidden="true" className="h-4 w-4" />}
        </button>
        <h3 dir="auto" className="min-w-0 font-serif text-lg font-semibold break-words">
          {chapter.title}
        </h3>
        <p className="text-sm text-stone-600">
          {counts}
          {editable ? (
            <span className="sr-only">
              . Chapter {index + 1} of {count}: Alt+Arrow keys move it.
            </span>
          ) : null}
        </p>
        {target ? <ProgressBar label={`${chapter.title}: target`} value={words} max={target} className="w-40" /> : null}
        {editable ? (
          <div className="ml-auto flex items-center gap-1">
            <Button
              size="icon"
              variant="ghost"
              aria-label={`Move ${chapter.title} up`}
              disabled={index <= 0}
              onClick={() => void actions.move(chapter.id, -1)}
            >
              <ArrowUp aria-hidden="true" className="h-4 w-4" />
            </Button>
            <Button
              size="icon"
              variant="ghost"
              aria-label={`Move ${chapter.title} down`}
              disabled={index >= count - 1}
              onClick={() => void actions.move(chapter.id, 1)}
            >
              <ArrowDown aria-hidden="true" className="h-4 w-4" />
            </Button>
            <Button
              size="icon"
              variant="ghost"
              aria-label={`${chapter.title} settings`}
              aria-expanded={menu}
              aria-controls={panelId}
              onClick={() => setMenu((x) => !x)}
            >
              <Settings2 aria-hidden="true" className="h-4 w-4" />
            </Button>
          </div>
        ) : null}
      </div>
      {editable && menu ? (
        <ChapterSettings id={panelId} context={context} chapter={chapter} all={all} canDelete={canDelete} onClose={() => setMenu(false)} />
      ) : null}
    </div>
  );
});

function ChapterSettings({
  id,
  context,
  chapter,
  all,
  canDelete,
  onClose,
}: {
  id: string;
  context: ChapterContext;
  chapter: ChapterView;
  all: Scene[];
  canDelete: boolean;
  onClose: () => void;
}) {
  const actions = useChapterActions();
  const [title, setTitle] = useState(chapter.title);
  const [target, setTarget] = useState(chapter.targetWords ? String(chapter.targetWords) : "");
  const [error, setError] = useState<{ title?: string; target?: string }>({});
  const [sceneId, setSceneId] = useState("");
  const [confirm, setConfirm] = useState(false);
  const [pending, setPending] = useState(false);
  const others = all.filter((s) => s.chapterId !== chapter.id);
  const save = async () => {
    const titleError = chapterTitleError(title);
    const parsed = parseTarget(target);
    const next = { title: titleError ?? undefined, target: "error" in parsed ? parsed.error : undefined };
    setError(next);
    if (next.title || next.target || "error" in parsed) return;
    if (await actions.update(chapter.id, { title: title.trim(), targetWords: parsed.value })) onClose();
  };
  const field = "h-9 rounded-md border border-stone-300 bg-white px-2 text-sm";
  return (
    <div id={id} className="mt-3 space-y-3 border-t border-stone-200 pt-3">
      <form
        noValidate
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label className="flex flex-col gap-1 text-sm font-medium">
          Chapter title
          <input
            className={field}
            value={title}
            maxLength={250}
            aria-invalid={error.title ? true : undefined}
            onChange={(e) => setTitle(e.target.value)}
          />
          {error.title ? <span className="text-sm font-normal text-red-700">{error.title}</span> : null}
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Target words
          <input
            className={cn(field, "w-32")}
            inputMode="numeric"
            value={target}
            aria-invalid={error.target ? true : undefined}
            onChange={(e) => setTarget(e.target.value)}
          />
          {error.target ? <span className="text-sm font-normal text-red-700">{error.target}</span> : null}
        </label>
        <Button type="submit" size="sm">
          Save chapter
        </Button>
      </form>
      {others.length ? (
        <div className="flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm font-medium">
            Move a scene into this chapter
            <select className={field} value={sceneId} onChange={(e) => setSceneId(e.target.value)}>
              <option value="">Choose a scene</option>
              {others.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.title}
                </option>
              ))}
            </select>
          </label>
          <Button
            size="sm"
            variant="outline"
            disabled={!sceneId}
            onClick={() => {
              const scene = others.find((s) => s.id === Number(sceneId));
              if (scene) void context.moveScene(scene, chapter.id).then(() => setSceneId(""));
            }}
          >
            Move here
          </Button>
        </div>
      ) : null}
      {canDelete ? (
        <Button size="sm" variant="outline" className="text-red-700" onClick={() => setConfirm(true)}>
          Delete chapter
        </Button>
      ) : null}
      <ConfirmDialog
        open={confirm}
        onOpenChange={setConfirm}
        title="Delete chapter"
        description={`Delete "${chapter.title}"? Its scenes are kept: they move to no chapter.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={pending}
        onConfirm={() => {
          setPending(true);
          void actions.remove(chapter.id).then(() => {
            setPending(false);
            setConfirm(false);
          });
        }}
      />
    </div>
  );
}
