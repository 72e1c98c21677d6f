import { getNodesBounds, getViewportForBounds } from "@xyflow/react";
import { toPng, toSvg } from "html-to-image";
import { errorToast } from "~/lib/toast";
import type { MapFlowNode } from "./types";

/** Downloads the whole map (every node, not only the visible part) as `mind-map.png` or `mind-map.svg`. */
export async function exportMap(nodes: MapFlowNode[], format: "png" | "svg") {
  const viewport = document.querySelector<HTMLElement>(".storyweave-map .react-flow__viewport");
  if (!viewport || nodes.length === 0) return;
  const bounds = getNodesBounds(nodes);
  const width = Math.min(4000, Math.max(400, bounds.width + 80));
  const height = Math.min(4000, Math.max(300, bounds.height + 80));
  const vp = getViewportForBounds(bounds, width, height, 0.1, 2, 0.05);
  const options = {
    backgroundColor: "#ffffff",
    width,
    height,
    style: { width: `${width}px`, height: `${height}px`, transform: `translate(${vp.x}px, ${vp.y}px) scale(${vp.zoom})` },
  };
  try {
    const url = format === "png" ? await toPng(viewport, options) : await toSvg(viewport, options);
    const a = document.createElement("a");
    a.href = url;
    a.download = `mind-map.${format}`;
    a.click();
  } catch {
    errorToast("Failed to export the map");
  }
}
