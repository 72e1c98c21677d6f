import { data } from "react-router";
import { loadManuscript } from "../../../worker/services/manuscript-page";
import { ManuscriptView } from "~/features/manuscript/manuscript-view";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, requireUser } from "~/lib/session.server";
import { TimelineNotFoundBoundary } from "~/ui/timeline-not-found-boundary";
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

export function ErrorBoundary() {
  return <TimelineNotFoundBoundary />;
}
