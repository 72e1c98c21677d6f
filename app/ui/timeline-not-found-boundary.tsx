import { Link, useRouteError } from "react-router";
import { RefusedChanges } from "~/features/offline/refused-changes";
import { useForgetEndedTimeline } from "~/features/offline/use-forget-ended-timeline";
import { Button } from "~/ui/button";
import { GeneralErrorBoundary, isNotFound } from "~/ui/error-boundary";

/**
 * The error boundary of the pages around a timeline (manuscript, print): its 404 is the timeline page's
 * 'Timeline not found', anything else the general error page. The timeline page keeps its own copy in its
 * first-paint chunk (timeline-not-found.tsx); importing this one there would split it into a chunk of its own.
 */
export function TimelineNotFoundBoundary() {
  return isNotFound(useRouteError()) ? <NotFound /> : <GeneralErrorBoundary />;
}

/** The server answered 404 for this timeline: whatever this device kept of it goes (unsent text: 'Changes not saved'). */
function NotFound() {
  useForgetEndedTimeline();
  return (
    <main className="mx-auto w-full max-w-7xl px-4 pt-24 pb-24 text-center">
      <div className="mx-auto max-w-xl text-left">
        <RefusedChanges />
      </div>
      <h1 className="text-2xl font-bold">Timeline not found</h1>
      <p className="mt-2 text-stone-600">It may have been deleted, or it was never shared with you.</p>
      <Button asChild className="mt-6">
        <Link to="/timeline">Return to Timelines</Link>
      </Button>
    </main>
  );
}
