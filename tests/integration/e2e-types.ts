// The e2e specs' API types (tests/e2e/types.ts) mirror the product's; this fails the type-check when the
// product's answers stop fitting them. Nothing here runs.
import type { ChapterView } from "../../worker/services/chapters";
import type { EntityView } from "../../worker/services/entities";
import type { EventView } from "../../worker/services/event-list";
import type { TimelineView } from "../../worker/services/timelines";
import type { Chapter, Entity, EventRow, Timeline } from "../e2e/types";

type Fits<Product extends Mirror, Mirror> = [Product, Mirror];
export type E2eTypesFit = [Fits<TimelineView, Timeline>, Fits<EventView, EventRow>, Fits<ChapterView, Chapter>, Fits<EntityView, Entity>];
