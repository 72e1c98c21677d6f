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

/** The built-in beat sheets and the writer's own templates. */
export const loadTemplates = async (): Promise<TemplateView[]> => (await unwrap(client.api.templates.$get())) as TemplateView[];
