import { Link } from "react-router";
import { Page } from "~/ui/page";
import { Button } from "~/ui/button";

export function TimelineNotFound() {
  return (
    <Page className="!pt-24 text-center">
      <h1 className="text-2xl font-bold">Timeline not found</h1>
      <p className="mt-2 text-stone-600">It may have been deleted, or it was never shared with you.</p>
      <Button asChild className="mt-6">
        <Link to="/timeline">Return to Timelines</Link>
      </Button>
    </Page>
  );
}
