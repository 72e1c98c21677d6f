import { useMemo } from "react";
import { type ShouldRevalidateFunctionArgs, useRouteError } from "react-router";
import { isPremium } from "../../../worker/services/plans";
import { listEntitiesForTimeline } from "../../../worker/services/entities";
import { openSharedTimeline } from "../../../worker/services/sharing";
import { GeneralErrorBoundary, isNotFound } from "~/components/error-boundary";
import { StoryAssistant } from "~/components/story-assistant";
import { TimelineNotFound, TimelineScreen, firstScreenOf, onlyViewChanged } from "~/components/timeline-screen";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, requireUser } from "~/lib/session.server";
import type { Route } from "./+types/shared";

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: `${loaderData?.shared?.timeline.title ?? "Timeline not found"} · StoryWeave` },
];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  try {
    const deps = app(context);
    const shared = await openSharedTimeline(deps, user, params.shareCode);
    const entities = await listEntitiesForTimeline(deps.db, shared.timeline.id);
    // Only the first screenful goes into the HTML; the screen fetches the rest after hydration.
    const { events, ...rest } = shared;
    return { shared: rest, page: firstScreenOf(events, new URL(request.url)), entities, premium: isPremium(user), userId: user.id };
  } catch (error) {
    rethrowAsNotFound(error);
  }
}

export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return onlyViewChanged(currentUrl, nextUrl) ? false : defaultShouldRevalidate;
}

export default function SharedTimeline({ loaderData, params }: Route.ComponentProps) {
  const { shared } = loaderData;
  const { id, accessLevel } = shared.timeline;
  const { shareCode } = params;
  // The same element while the timeline is the same, so the memoized screen skips the route's re-renders.
  const assistant = useMemo(
    () => (accessLevel === "viewer" ? undefined : <StoryAssistant timelineId={id} shareCode={shareCode} />),
    [id, accessLevel, shareCode],
  );
  return (
    <TimelineScreen
      key={shared.timeline.id}
      timeline={shared.timeline}
      page={loaderData.page}
      entities={loaderData.entities}
      premium={loaderData.premium}
      myUserId={loaderData.userId}
      shareCode={params.shareCode}
      assistant={assistant}
    />
  );
}

export function ErrorBoundary() {
  return isNotFound(useRouteError()) ? <TimelineNotFound /> : <GeneralErrorBoundary />;
}
