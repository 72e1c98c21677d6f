import "@xyflow/react/dist/style.css";
import { ReactFlowProvider } from "@xyflow/react";
import { MindMapCanvas } from "./canvas";
import type { MindMapProps } from "./types";

// The Map layout (README "Mind map"). Loaded only when opened (React.lazy in timeline-screen.tsx), with xyflow's
// CSS. Events and codex entries as nodes, their links as edges; Premium adds idea and group nodes, labeled edges
// and export.

export type { MindMapProps } from "./types";

export default function MindMapView(props: MindMapProps) {
  return (
    <ReactFlowProvider>
      <MindMapCanvas {...props} />
    </ReactFlowProvider>
  );
}
