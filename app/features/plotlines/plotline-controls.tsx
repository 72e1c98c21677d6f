import { Suspense, lazy, useId } from "react";
import { Dialog } from "~/ui/dialog";
import type { PlotlineTools } from "./plotline-manager";
import { usePlotlines } from "./plotline-queries";

/**
 * Plotlines on the timeline screen: the Panels menu's dialog (its manager loads on first use) and the Plotline filter.
 * The cards' chips are rendered with the page (plotline-context). All read the list from plotline-queries.ts.
 */

export const loadManager = () => import("./plotline-manager");
const PlotlineManager = lazy(() => loadManager().then((m) => ({ default: m.PlotlineManager })));

/** The 'Plotlines' dialog (opened from the Panels menu) and its manager: add, rename, recolor, reorder, delete. */
export function PlotlinesDialog({
  open,
  onOpenChange,
  ...props
}: PlotlineTools & { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Plotlines"
      description="Main plot, subplots and arcs. A scene can be in several."
    >
      <Suspense fallback={<p className="mt-4 text-sm text-stone-600">Loading...</p>}>
        <PlotlineManager {...props} />
      </Suspense>
    </Dialog>
  );
}

/** The Plotline filter: every scene, or only one plotline's (kept in the address as `?plotline=`). */
export function PlotlineFilter({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const plotlines = usePlotlines();
  const id = useId();
  if (plotlines.length === 0 && value === null) return null;
  return (
    <div className="inline-flex h-9 items-center gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-stone-700">
        Plotline
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
        className="h-9 rounded-md border border-stone-300 bg-white px-2 text-sm"
      >
        <option value="">All plotlines</option>
        {plotlines.map((p) => (
          <option key={p.id} value={p.id}>
            {p.title}
          </option>
        ))}
      </select>
    </div>
  );
}
