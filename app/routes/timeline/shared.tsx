import { useMemo } from "react";
import { type ShouldRevalidateFunctionArgs, redirect, useRouteError } from "react-router";
import { isPremium } from "../../../worker/services/plans";
import { listEntitiesForTimeline } from "../../../worker/services/entities";
import { openSharedTimeline, previewShareLink } from "../../../worker/services/sharing";
import { GeneralErrorBoundary, isNotFound } from "~/components/error-boundary";
import { JoinSharedTimeline } from "~/components/join-shared-timeline";
import { StoryAssistant } from "~/components/story-assistant";
import { TimelineNotFound, TimelineScreen, firstScreenOf, onlyViewChanged } from "~/components/timeline-screen";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, sessionUser } from "~/lib/session.server";
import type { Route } from "./+types/shared";

export const meta = ({ loaderData }: Route.MetaArgs) => [
  {
    title: `${loaderData?.invite ? `Join ${loaderData.invite.timeline.title}` : (loaderData?.shared?.timeline.title ?? "Timeline not found")} · StoryWeave`,
  },
];

/**
 * A share link: a writer who has not joined sees what it is for and joins on request (nothing is
 * written here); the owner, or a writer who already has the link's level, goes straight to the timeline.
 * Signed out, the link is kept through sign-in as the return address.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = sessionUser(context);
  const url = new URL(request.url);
  if (!user) throw redirect(`/auth/login?redirectTo=${encodeURIComponent(url.pathname)}`);
  try {
    const { db } = app(context);
    const invite = await previewShareLink(db, user, params.shareCode);
    if (!invite.joined) return { invite, shared: null };
    const shared = await openSharedTimeline(db, user, params.shareCode);
    const entities = await listEntitiesForTimeline(db, shared.timeline.id);
    // Only the first screenful goes into the HTML; the screen fetches the rest after hydration.
    const { events, ...rest } = shared;
    return { invite: null, shared: rest, page: firstScreenOf(events, url), entities, premium: isPremium(user), userId: user.id };
  } catch (error) {
    rethrowAsNotFound(error);
  }
}

export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return onlyViewChanged(currentUrl, nextUrl) ? false : defaultShouldRevalidate;
}

export default function SharedTimeline({ loaderData, params }: Route.ComponentProps) {
  if (loaderData.invite) return <JoinSharedTimeline key={params.shareCode} invite={loaderData.invite} shareCode={params.shareCode} />;
  return <JoinedTimeline data={loaderData} shareCode={params.shareCode} />;
}

function JoinedTimeline({
  data: loaderData,
  shareCode,
}: {
  data: Extract<Route.ComponentProps["loaderData"], { invite: null }>;
  shareCode: string;
}) {
  const { shared } = loaderData;
  const { id, accessLevel } = shared.timeline;
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
      shareCode={shareCode}
      assistant={assistant}
    />
  );
}

export function ErrorBoundary() {
  return isNotFound(useRouteError()) ? <TimelineNotFound /> : <GeneralErrorBoundary />;
}
