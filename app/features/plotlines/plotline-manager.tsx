import { ArrowDown, ArrowUp, Trash2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "~/ui/button";
import { ConfirmDialog } from "~/ui/dialog";
import { Input } from "~/ui/input";
import { plotlineLimits, plotlineMessages, plotlinePalette } from "../../../db/domain/plotline-rules";
import type { PlotlineView } from "../../../worker/services/plotlines";
import { usePlotlineActions, usePlotlines } from "./plotline-queries";

// The Plotlines dialog's body: add, rename, recolor, reorder, delete. Loaded when the pointer nears its Panels menu
// entry or the dialog opens. The list and its changes are the data layer's (plotline-queries.ts).

export type PlotlineTools = {
  /** Only the owner deletes a plotline. */
  canDelete: boolean;
};

const colorNames: Record<string, string> = {
  "#2563eb": "Blue",
  "#dc2626": "Red",
  "#16a34a": "Green",
  "#9333ea": "Purple",
  "#ea580c": "Orange",
  "#0891b2": "Teal",
  "#db2777": "Pink",
  "#4d7c0f": "Olive",
};

/** 'Plotline title is required', at most 100 characters: null when the title is fine. */
export function plotlineTitleError(title: string): string | null {
  const trimmed = title.trim();
  if (!trimmed) return plotlineMessages.titleRequired;
  if (trimmed.length > plotlineLimits.title) return plotlineMessages.titleTooLong;
  return null;
}

export function PlotlineManager({ canDelete }: PlotlineTools) {
  const plotlines = usePlotlines();
  const actions = usePlotlineActions();
  const inputId = useId();
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PlotlineView | null>(null);
  const [pending, setPending] = useState(false);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const problem = plotlineTitleError(title);
    setError(problem);
    if (problem) return;
    // The new row shows at once, so the field empties at once: a writer may type the next title while this one is
    // sent. A refused title comes back into the field only when it is still empty (never over what was typed since).
    setPending(true);
    setTitle("");
    if (!(await actions.create(title))) setTitle((typed) => typed || title);
    setPending(false);
  };

  return (
    <div className="mt-4 space-y-4">
      {plotlines.length === 0 ? <p className="text-sm text-stone-600">No plotlines yet.</p> : null}
      <ol className="space-y-3">
        {plotlines.map((p, i) => (
          <PlotlineRow
            key={`${p.id}-${p.title}`}
            plotline={p}
            first={i === 0}
            last={i === plotlines.length - 1}
            onDelete={canDelete ? () => setDeleting(p) : undefined}
          />
        ))}
      </ol>
      <form onSubmit={(e) => void add(e)} className="space-y-1" noValidate>
        <label htmlFor={inputId} className="text-sm font-medium">
          New plotline
        </label>
        <div className="flex gap-2">
          <Input
            id={inputId}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            placeholder="Main plot"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${inputId}-error` : undefined}
          />
          <Button type="submit" disabled={pending}>
            Add plotline
          </Button>
        </div>
        {error ? (
          <p id={`${inputId}-error`} role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
      </form>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title="Delete plotline"
        description={`Delete "${deleting?.title ?? ""}"? Its scenes are kept: they only leave this plotline.`}
        confirmLabel="Delete"
        pendingLabel="Deleting..."
        pending={pending}
        onConfirm={() => {
          if (!deleting) return;
          setPending(true);
          void actions.remove(deleting.id).then(() => {
            setPending(false);
            setDeleting(null);
          });
        }}
      />
    </div>
  );
}

function PlotlineRow({
  plotline,
  first,
  last,
  onDelete,
}: {
  plotline: PlotlineView;
  first: boolean;
  last: boolean;
  onDelete?: () => void;
}) {
  const [title, setTitle] = useState(plotline.title);
  const [error, setError] = useState<string | null>(null);
  const id = `plotline-${plotline.id}`;
  const actions = usePlotlineActions();
  const rename = () => {
    if (title.trim() === plotline.title) return;
    const problem = plotlineTitleError(title);
    setError(problem);
    if (!problem) void actions.update(plotline.id, { title: title.trim() });
  };
  return (
    <li className="space-y-1.5 rounded-md border border-stone-200 p-2" data-testid="plotline-row">
      <div className="flex items-center gap-2">
        <span aria-hidden="true" className="h-4 w-4 shrink-0 rounded-full" style={{ backgroundColor: plotline.color }} />
        <Input
          id={id}
          aria-label={`Title of ${plotline.title}`}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          onBlur={rename}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              rename();
            }
          }}
          aria-invalid={error ? true : undefined}
        />
        <Button
          size="icon"
          variant="ghost"
          disabled={first}
          onClick={() => void actions.move(plotline, -1)}
          aria-label={`Move ${plotline.title} up`}
        >
          <ArrowUp aria-hidden="true" className="h-4 w-4" />
        </Button>
        <Button
          size="icon"
          variant="ghost"
          disabled={last}
          onClick={() => void actions.move(plotline, 1)}
          aria-label={`Move ${plotline.title} down`}
        >
          <ArrowDown aria-hidden="true" className="h-4 w-4" />
        </Button>
        {onDelete ? (
          <Button size="icon" variant="ghost" className="text-red-700" onClick={onDelete} aria-label={`Delete ${plotline.title}`}>
            <Trash2 aria-hidden="true" className="h-4 w-4" />
          </Button>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <fieldset className="flex flex-wrap gap-1">
        <legend className="sr-only">Color of {plotline.title}</legend>
        {plotlinePalette.map((color) => (
          <button
            key={color}
            type="button"
            aria-pressed={plotline.color === color}
            aria-label={colorNames[color] ?? color}
            onClick={() => plotline.color !== color && void actions.update(plotline.id, { color })}
            className="h-6 w-6 rounded-full border-2 aria-pressed:border-stone-900 border-transparent"
            style={{ backgroundColor: color }}
          />
        ))}
      </fieldset>
    </li>
  );
}
