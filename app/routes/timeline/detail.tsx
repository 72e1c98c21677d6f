import { data } from "react-router";
import { HttpError } from "../../../worker/lib/errors";
import { isPremium } from "../../../worker/services/plans";
import { listEventsForTimeline } from "../../../worker/services/events";
import { getTimeline } from "../../../worker/services/timelines";
import { StoryAssistant } from "~/components/story-assistant";
import { TimelineNotFound, TimelineScreen } from "~/components/timeline-screen";
import { app, requireUser } from "~/lib/session.server";
import type { Route } from "./+types/detail";

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: `${loaderData?.timeline?.title ?? "Timeline not found"} · StoryWeave` },
];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : 0;
  try {
    if (!id) throw new HttpError(404, "Timeline not found");
    // Three D1 statements per page load: the session (Worker), the timeline with access, the events.
    const timeline = await getTimeline(db, user, id);
    const events = await listEventsForTimeline(db, id);
    const openShare = new URL(request.url).searchParams.has("share");
    return { timeline, events, premium: isPremium(user), userId: user.id, openShare };
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) {
      return data({ timeline: null, events: [], premium: isPremium(user), userId: user.id, openShare: false }, 404);
    }
    throw error;
  }
}

export default function TimelineDetail({ loaderData }: Route.ComponentProps) {
  if (!loaderData.timeline) return <TimelineNotFound />;
  return (
    <TimelineScreen
      key={loaderData.timeline.id}
      timeline={loaderData.timeline}
      events={loaderData.events}
      premium={loaderData.premium}
      myUserId={loaderData.userId}
      openShare={loaderData.openShare}
      assistant={loaderData.timeline.accessLevel === "viewer" ? undefined : <StoryAssistant timelineId={loaderData.timeline.id} />}
    />
  );
}
