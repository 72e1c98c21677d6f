import { type ComponentType, createContext } from "react";
import type { EventView } from "../../../worker/services/events";

/** A card's comments button (count and read-mode comments): `CardReview` of card-comments-button.tsx. */
export const ReviewContext = createContext<ComponentType<{ event: EventView }> | null>(null);
