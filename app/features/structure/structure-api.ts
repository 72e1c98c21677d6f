import type { EventView } from "../../../worker/services/events";
import type { OverlayScene } from "../../../db/domain/templates/overlay";
import { client, unwrap } from "~/lib/client";
import type { TemplateView } from "../../../db/domain/templates/built-in";
import type { StructureView } from "../../../worker/services/templates";

export type { StructureView, TemplateView };

export type StructureToolsProps = {
  timelineId: number;
  timelineTitle: string;
  structureTemplateId: string | null;
  shareCode?: string | null;
  headers: Record<string, string>;
  canEdit: boolean;
  /** Every scene in story order (with its word count). */
  events: OverlayScene[];
  /** Markers are shown (story order, a list layout). */
  showMarkers: boolean;
  /** The screen reads its scenes again (after a scene suggested for a beat was written). */
  onScenesChanged?: () => void;
  /** A scene the server answered with after a write here, shown at once. */
  onSceneWritten?: (event: EventView) => void;
};

/** A JSON call to our API; a refusal throws an Error with the server's message. */
export async function structureCall<T>(
  method: string,
  path: string,
  options: { body?: unknown; shareCode?: string | null; headers?: Record<string, string> } = {},
): Promise<T> {
  const url = new URL(path, window.location.origin);
  if (options.shareCode) url.searchParams.set("share", options.shareCode);
  const res = await fetch(url, {
    method,
    credentials: "same-origin",
    headers: { ...(options.body === undefined ? {} : { "Content-Type": "application/json" }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data as { error?: string } | null)?.error ?? "Something went wrong. Please try again.");
  return data as T;
}

/** The built-in beat sheets and the writer's own templates. */
export const loadTemplates = (): Promise<TemplateView[]> => unwrap(client.api.templates.$get());
