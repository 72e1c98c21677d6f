import { createContext, useContext } from "react";
import { usePlotlines } from "./plotline-queries";

/** What a card's plotline chip does: the screen shows only that plotline's scenes. */
export type CardPlotlines = {
  /** A chip's click: show only this plotline's scenes. */
  onSelect?: (plotlineId: number) => void;
};

export const PlotlinesContext = createContext<CardPlotlines>({});

/** A scene's plotlines as small colored chips, in the plotlines' order (the list from the data layer's query). */
export function PlotlineChips({ ids }: { ids: number[] }) {
  // A scene in no plotline reads nothing (most cards of a book without plotlines).
  return ids.length > 0 ? <Chips ids={ids} /> : null;
}

function Chips({ ids }: { ids: number[] }) {
  const plotlines = usePlotlines();
  const { onSelect } = useContext(PlotlinesContext);
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
