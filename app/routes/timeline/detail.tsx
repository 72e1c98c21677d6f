import { data, useRouteError } from "react-router";
import { isPremium } from "../../../worker/services/plans";
import { listEntitiesForTimeline } from "../../../worker/services/entities";
import { listEventsForTimeline } from "../../../worker/services/events";
import { getTimeline } from "../../../worker/services/timelines";
import { GeneralErrorBoundary, isNotFound } from "~/components/error-boundary";
import { StoryAssistant } from "~/components/story-assistant";
import { TimelineNotFound, TimelineScreen } from "~/components/timeline-screen";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, requireUser } from "~/lib/session.server";
import type { Route } from "./+types/detail";

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: `${loaderData?.timeline?.title ?? "Timeline not found"} · StoryWeave` }];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : 0;
  if (!id) throw data("Timeline not found", { status: 404 });
  // Four D1 statements per page load: the session (Worker), the timeline with access, the events, the codex.
  // A timeline that is missing or not yours throws the services' 404, answered by the ErrorBoundary below.
  const timeline = await getTimeline(db, user, id).catch(rethrowAsNotFound);
  const [events, entities] = await Promise.all([listEventsForTimeline(db, id), listEntitiesForTimeline(db, id)]);
  const openShare = new URL(request.url).searchParams.has("share");
  return { timeline, events, entities, premium: isPremium(user), userId: user.id, openShare };
}

export default function TimelineDetail({ loaderData }: Route.ComponentProps) {
  return (
    <TimelineScreen
      key={loaderData.timeline.id}
      timeline={loaderData.timeline}
      events={loaderData.events}
      entities={loaderData.entities}
      premium={loaderData.premium}
      myUserId={loaderData.userId}
      openShare={loaderData.openShare}
      assistant={loaderData.timeline.accessLevel === "viewer" ? undefined : <StoryAssistant timelineId={loaderData.timeline.id} />}
    />
  );
}

export function ErrorBoundary() {
  return isNotFound(useRouteError()) ? <TimelineNotFound /> : <GeneralErrorBoundary />;
}
