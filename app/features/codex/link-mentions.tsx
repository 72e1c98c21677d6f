import { Link2 } from "lucide-react";
import type { CodexApi } from "~/features/codex/codex-request";
import type { useOfflineLock } from "~/features/offline/offline-lock";
import { errorMessage, shareParam, unwrap } from "~/lib/client";
import { useMutation } from "~/lib/use-mutation";
import { Button } from "~/ui/button";

// 'Link all mentions' for the book: every codex entry linked to every scene that names it, in one request (the
// server holds every scene's text; the page may not have them all yet). The cards' own 'Link all mentions' is in
// story-hints.tsx.

/** The toast's words: 'Linked 41 mentions', 'Linked 1 mention', or that there was nothing to link. */
export function linkedMentionsText(linked: number) {
  if (linked === 0) return "Every mention is already linked";
  return `Linked ${linked} ${linked === 1 ? "mention" : "mentions"}`;
}

/** The Codex panel's button (editors): links, says how many, and reloads the scenes with their new links. */
export function LinkAllMentionsButton({
  timelineId,
  shareCode,
  client,
  lock,
}: CodexApi & {
  /** The panel's: disabled saying 'You're offline' while there is no network. */ lock?: ReturnType<typeof useOfflineLock>["lock"];
}) {
  const linkAll = useMutation(
    () =>
      unwrap(client.api.timelines[":id"].codex["link-mentions"].$post({ param: { id: String(timelineId) }, query: shareParam(shareCode) })),
    {
      success: ({ linked }) => ({ title: "Success", description: linkedMentionsText(linked) }),
      error: (error) => errorMessage(error, "Failed to link mentions"),
      revalidate: ({ linked }) => linked > 0,
    },
  );
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={linkAll.pending}
      onClick={() => void linkAll.run()}
      title="Link every codex entry to every scene that names it"
      {...lock}
    >
      <Link2 aria-hidden="true" className="h-4 w-4" /> {linkAll.pending ? "Linking..." : "Link all mentions"}
    </Button>
  );
}
