import { createContext, useContext } from "react";
import { CloseCodes, CloseReasons } from "../../../durable-objects/close-codes";

// What a card's co-writing editor needs from the timeline screen, kept out of the memoized
// cards' props: who I am (for my caret's color), and the room, told which event's editor I have open.

export type CoWriteApi = {
  timelineId: number;
  shareCode: string | null;
  myUserId: number;
  /** My name as the room knows it (the doc's server sets it on my caret for the others too). */
  myName: string;
  /** I own the timeline (I may delete anyone's comment). */
  isOwner?: boolean;
  /** My editor for this event opened (true) or closed (false): the room says 'Mara is writing here'. */
  setEditing: (eventId: number, open: boolean) => void;
  /** The editor's latest text, shown in my own read-mode card at once (the room relays it to the others). */
  showText: (eventId: number, text: { title: string; content: string }) => void;
  /** The room said my access ended (removed, signed out): how. Open editors stop and offer their text. */
  ended: AccessEnd | null;
};

export const CoWriteContext = createContext<CoWriteApi | null>(null);
export const useCoWrite = () => useContext(CoWriteContext);

/** A readable caret color per user (white label text on it passes WCAG AA), the same in every browser. */
const CARET_COLORS = ["#b91c1c", "#1d4ed8", "#047857", "#7c3aed", "#c2410c", "#be185d", "#0f766e", "#4d7c0f"];
export const caretColor = (userId: number) => CARET_COLORS[Math.abs(userId) % CARET_COLORS.length];

/** 'Mara is writing here', 'Mara and Tom are writing here', 'Mara, Tom and 1 more are writing here'. */
export function writingHereText(names: string[]): string | null {
  if (names.length === 0) return null;
  if (names.length === 1) return `${names[0]} is writing here`;
  if (names.length === 2) return `${names[0]} and ${names[1]} are writing here`;
  return `${names[0]}, ${names[1]} and ${names.length - 2} more are writing here`;
}

/** How my access ended or shrank, as the room or doc socket's close said it (the words load with the editor). */
export type AccessEnd = "removed" | "viewOnly" | "signedOut";

/** Why a room or doc socket was closed because my access ended or shrank (null: another close). */
export function accessEndOf(code: number, reason: string): AccessEnd | null {
  if (code === CloseCodes.unauthenticated) return "signedOut";
  if (code === CloseCodes.accessRemoved) return reason === CloseReasons.viewOnly ? "viewOnly" : "removed";
  if (code === CloseCodes.accessChanged && reason === CloseReasons.viewOnly) return "viewOnly";
  return null;
}
