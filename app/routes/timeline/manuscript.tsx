import { Link, data, useRouteError } from "react-router";
import { loadManuscript } from "../../../worker/services/manuscript-page";
import { GeneralErrorBoundary, isNotFound } from "~/ui/error-boundary";
import { ManuscriptView } from "~/features/manuscript/manuscript-view";
import { Button } from "~/ui/button";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, requireUser } from "~/lib/session.server";
import type { Route } from "./+types/manuscript";

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: `${loaderData?.timeline.title ?? "Timeline not found"} · Manuscript · StoryWeave` },
];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : 0;
  if (!id) throw data("Timeline not found", { status: 404 });
  // The timeline page's access, share links (`?share=`) included: missing or not readable answers the 404 page.
  const shareCode = new URL(request.url).searchParams.get("share");
  const manuscript = await loadManuscript(app(context).db, user, id, shareCode).catch(rethrowAsNotFound);
  return { ...manuscript, shareCode, me: { id: user.id, name: user.name ?? "" } };
}

export default function Manuscript({ loaderData }: Route.ComponentProps) {
  return <ManuscriptView key={loaderData.timeline.id} {...loaderData} />;
}

// The timeline page's not-found, written out here: importing the timeline's own would split it out of the
// timeline's first-paint chunk into a chunk of its own (more bytes before the timeline is interactive).
export function ErrorBoundary() {
  return isNotFound(useRouteError()) ? (
    <main className="mx-auto w-full max-w-7xl px-4 pt-24 pb-24 text-center">
      <h1 className="text-2xl font-bold">Timeline not found</h1>
      <p className="mt-2 text-stone-600">It may have been deleted, or it was never shared with you.</p>
      <Button asChild className="mt-6">
        <Link to="/timeline">Return to Timelines</Link>
      </Button>
    </main>
  ) : (
    <GeneralErrorBoundary />
  );
}
