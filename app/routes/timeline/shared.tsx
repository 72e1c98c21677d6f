import { useRouteError } from "react-router";
import { isPremium } from "../../../worker/services/plans";
import { openSharedTimeline } from "../../../worker/services/sharing";
import { GeneralErrorBoundary, isNotFound } from "~/components/error-boundary";
import { StoryAssistant } from "~/components/story-assistant";
import { TimelineNotFound, TimelineScreen } from "~/components/timeline-screen";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, requireUser } from "~/lib/session.server";
import type { Route } from "./+types/shared";

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: `${loaderData?.shared?.timeline.title ?? "Timeline not found"} · StoryWeave` },
];

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  try {
    const shared = await openSharedTimeline(app(context), user, params.shareCode);
    return { shared, premium: isPremium(user), userId: user.id };
  } catch (error) {
    rethrowAsNotFound(error);
  }
}

export default function SharedTimeline({ loaderData, params }: Route.ComponentProps) {
  const { shared } = loaderData;
  return (
    <TimelineScreen
      key={shared.timeline.id}
      timeline={shared.timeline}
      events={shared.events}
      premium={loaderData.premium}
      myUserId={loaderData.userId}
      shareCode={params.shareCode}
      assistant={
        shared.timeline.accessLevel === "viewer" ? undefined : (
          <StoryAssistant timelineId={shared.timeline.id} shareCode={params.shareCode} />
        )
      }
    />
  );
}

export function ErrorBoundary() {
  return isNotFound(useRouteError()) ? <TimelineNotFound /> : <GeneralErrorBoundary />;
}
