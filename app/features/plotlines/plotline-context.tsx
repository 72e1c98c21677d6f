import { createContext, useContext } from "react";
import type { PlotlineView } from "../../../worker/services/plotlines";

/** The timeline's plotlines as the cards see them (rendered on the server with the page). */
export type CardPlotlines = {
  plotlines: PlotlineView[];
  /** A chip's click: show only this plotline's scenes. */
  onSelect?: (plotlineId: number) => void;
};

export const PlotlinesContext = createContext<CardPlotlines>({ plotlines: [] });
export const usePlotlines = () => useContext(PlotlinesContext);

/** A scene's plotlines as small colored chips, in the plotlines' order. */
export function PlotlineChips({ ids }: { ids: number[] }) {
  const { plotlines, onSelect } = usePlotlines();
  const mine = plotlines.filter((p) => ids.includes(p.id));
  if (mine.length === 0) return null;
  return (
    <ul aria-label="Plotlines" className="mt-2 flex flex-wrap gap-1">
      {mine.map((p) => (
        <li key={p.id}>
          <button
            type="button"
            onClick={() => onSelect?.(p.id)}
            title={`Show only ${p.title}`}
            className="inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium text-white"
            style={{ backgroundColor: p.color }}
          >
            {p.title}
          </button>
        </li>
      ))}
    </ul>
  );
}
