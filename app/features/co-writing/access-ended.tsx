import type { AccessEnd } from "~/features/co-writing/co-editor-context";

// The page's words for an access that ended while the timeline was open. Loaded only when it happens.

export const accessEndedText: Record<AccessEnd, string> = {
  removed: "Your access to this timeline was removed",
  viewOnly: "Your access to this timeline was changed to view-only",
  signedOut: "Your session has ended. Please sign in again.",
};

/** The toast when the room closed this page for good: how my access ended, or the timeline went (null). */
export const lostAccessText = (end: AccessEnd | null) => (end ? accessEndedText[end] : "You no longer have access to this timeline");

/** Above the timeline: my access ended with an editor open (copy your text), or I was made a viewer. */
export default function AccessEndedBanner({ end, editorOpen }: { end: AccessEnd; editorOpen: boolean }) {
  return (
    <div role={editorOpen ? "alert" : "status"} className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950">
      <p className="font-medium">{accessEndedText[end]}</p>
      {editorOpen ? <p className="mt-1 text-sm">Copy your text from the editor below before you leave this page.</p> : null}
    </div>
  );
}
