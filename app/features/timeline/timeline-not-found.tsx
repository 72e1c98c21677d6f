import { Link } from "react-router";
import { RefusedChanges } from "~/features/offline/refused-changes";
import { useForgetEndedTimeline } from "~/features/offline/use-forget-ended-timeline";
import { Page } from "~/ui/page";
import { Button } from "~/ui/button";

/** The server answered 404 for this timeline: whatever this device kept of it goes (unsent text: 'Changes not saved'). */
export function TimelineNotFound() {
  useForgetEndedTimeline();
  return (
    <Page className="!pt-24 text-center">
      <div className="mx-auto max-w-xl text-left">
        <RefusedChanges />
      </div>
      <h1 className="text-2xl font-bold">Timeline not found</h1>
      <p className="mt-2 text-stone-600">It may have been deleted, or it was never shared with you.</p>
      <Button asChild className="mt-6">
        <Link to="/timeline">Return to Timelines</Link>
      </Button>
    </Page>
  );
}
