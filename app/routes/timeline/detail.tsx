import { useMemo } from "react";
import { type ShouldRevalidateFunctionArgs, data, useRouteError } from "react-router";
import { isPremium } from "../../../worker/services/plans";
import { listEntitiesForTimeline } from "../../../worker/services/entities";
import { listEventsPage } from "../../../worker/services/events";
import { getTimeline } from "../../../worker/services/timelines";
import { GeneralErrorBoundary, isNotFound } from "~/components/error-boundary";
import { StoryAssistant } from "~/components/story-assistant";
import { TimelineNotFound, TimelineScreen, eventViewOf, onlyViewChanged } from "~/components/timeline-screen";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, requireUser } from "~/lib/session.server";
import type { Route } from "./+types/detail";

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: `${loaderData?.timeline?.title ?? "Timeline not found"} · StoryWeave` }];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : 0;
  if (!id) throw data("Timeline not found", { status: 404 });
  // The session (Worker), the timeline with access, the first screenful of events with the counts, the codex.
  // A timeline that is missing or not yours throws the services' 404, answered by the ErrorBoundary below.
  const timeline = await getTimeline(db, user, id).catch(rethrowAsNotFound);
  const url = new URL(request.url);
  const [page, entities] = await Promise.all([listEventsPage(db, id, eventViewOf(url)), listEntitiesForTimeline(db, id)]);
  const openShare = url.searchParams.has("share");
  return { timeline, page, entities, premium: isPremium(user), userId: user.id, openShare };
}

// The screen holds every event once hydrated: switching the order or the codex filter needs no reload.
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return onlyViewChanged(currentUrl, nextUrl) ? false : defaultShouldRevalidate;
}

export default function TimelineDetail({ loaderData }: Route.ComponentProps) {
  const { id, accessLevel } = loaderData.timeline;
  // The same element while the timeline is the same, so the memoized screen skips the route's re-renders.
  const assistant = useMemo(() => (accessLevel === "viewer" ? undefined : <StoryAssistant timelineId={id} />), [id, accessLevel]);
  return (
    <TimelineScreen
      key={loaderData.timeline.id}
      timeline={loaderData.timeline}
      page={loaderData.page}
      entities={loaderData.entities}
      premium={loaderData.premium}
      myUserId={loaderData.userId}
      openShare={loaderData.openShare}
      assistant={assistant}
    />
  );
}

export function ErrorBoundary() {
  return isNotFound(useRouteError()) ? <TimelineNotFound /> : <GeneralErrorBoundary />;
}
