import { Suspense, lazy, useMemo } from "react";
import { type ShouldRevalidateFunctionArgs, data, redirect, useRouteError } from "react-router";
import { isPremium } from "../../../worker/services/plans";
import { listEntitiesForTimeline } from "../../../worker/services/entities";
import { seriesOfBook } from "../../../worker/services/series";
import { localeOf } from "../../../db/domain/calendar/locale";
import { bookPath } from "../../../db/domain/book-path";
import { listEventsPage } from "../../../worker/services/events";
import { listPlotlinesOf } from "../../../worker/services/plotlines";
import { listChaptersOf } from "../../../worker/services/chapters";
import { joinSharedTimeline, openSharedTimeline, previewShareLink } from "../../../worker/services/sharing";
import { HttpError } from "../../../worker/lib/errors";
import { getTimeline } from "../../../worker/services/timelines";
import { GeneralErrorBoundary, isNotFound } from "~/ui/error-boundary";
import { LazyStoryAssistant } from "~/features/assistant/lazy-story-assistant";
import { TimelineNotFound, TimelineScreen } from "~/features/timeline/timeline-screen";
import { eventViewOf, firstScreenOf, onlyViewChanged } from "~/features/timeline/timeline-view";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, requireUser, sessionUser } from "~/lib/session.server";
import type { Route } from "./+types/detail";

/**
 * One timeline, by its id (/timeline/{id}) or by a share link (/timeline/shared/{code}, whose route module
 * re-exports this one).
 */
// Only a writer who has not joined the link yet sees it: not in the timeline's own bundle.
const JoinSharedTimeline = lazy(() => import("~/features/share/join-shared-timeline").then((m) => ({ default: m.JoinSharedTimeline })));

export const meta = ({ loaderData }: Route.MetaArgs) => [
  {
    title: `${loaderData?.invite ? `Join ${loaderData.invite.timeline.title}` : (loaderData?.timeline?.title ?? "Timeline not found")} · StoryWeave`,
  },
];

/** The share link's code, when the timeline was opened by one. */
const shareCodeOf = (params: object): string | null =>
  "shareCode" in params && typeof params.shareCode === "string" ? params.shareCode : null;

export async function loader(args: Route.LoaderArgs) {
  const shareCode = shareCodeOf(args.params);
  return shareCode === null ? ownTimeline(args) : sharedTimeline(args, shareCode);
}

async function ownTimeline({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const id = params.id && /^\d{1,12}$/.test(params.id) ? Number(params.id) : 0;
  if (!id) throw data("Timeline not found", { status: 404 });
  // The session (Worker), the timeline with access, the first screenful of events with the counts, the codex.
  // A timeline that is missing or not yours throws the services' 404, answered by the ErrorBoundary below.
  const timeline = await getTimeline(db, user, id).catch(rethrowAsNotFound);
  const url = new URL(request.url);
  const [page, entities, plotlines, chapters, series] = await Promise.all([
    listEventsPage(db, id, { ...eventViewOf(url), locale: localeOf(request.headers.get("Accept-Language")) }),
    listEntitiesForTimeline(db, id, user),
    listPlotlinesOf(db, id),
    listChaptersOf(db, id),
    seriesOfBook(db, id),
  ]);
  const openShare = url.searchParams.has("share");
  return {
    invite: null,
    timeline: { ...timeline, series },
    page,
    entities,
    plotlines,
    chapters,
    premium: isPremium(user),
    userId: user.id,
    openShare,
    madeAt: Date.now(),
  };
}

/**
 * A share link: a writer who has not joined sees what it is for and joins on request (nothing is
 * written here); the owner, or a writer who already has the link's level, goes straight to the timeline.
 * Signed out, the link is kept through sign-in as the return address.
 */
async function sharedTimeline({ request, context }: Route.LoaderArgs, shareCode: string) {
  const user = sessionUser(context);
  const url = new URL(request.url);
  if (!user) throw redirect(`/auth/login?redirectTo=${encodeURIComponent(url.pathname)}`);
  try {
    const { db } = app(context);
    const invite = await previewShareLink(db, user, shareCode);
    if (!invite.joined) return { invite, timeline: null };
    const { events, ...shared } = await openSharedTimeline(db, user, shareCode, localeOf(request.headers.get("Accept-Language")));
    // A viewer opening the book lands in the Manuscript (reading), the timeline one click away.
    if (shared.timeline.accessLevel === "viewer") throw redirect(bookPath(shared.timeline.id, "viewer"));
    const [entities, plotlines, chapters, series] = await Promise.all([
      listEntitiesForTimeline(db, shared.timeline.id, user),
      listPlotlinesOf(db, shared.timeline.id),
      listChaptersOf(db, shared.timeline.id),
      seriesOfBook(db, shared.timeline.id),
    ]);
    // Only the first screenful goes into the HTML; the screen fetches the rest after hydration.
    return {
      invite: null,
      timeline: { ...shared.timeline, series },
      page: firstScreenOf(events, url),
      entities,
      plotlines,
      chapters,
      premium: isPremium(user),
      userId: user.id,
      openShare: false,
      madeAt: Date.now(),
    };
  } catch (error) {
    rethrowAsNotFound(error);
  }
}

/**
 * 'Join timeline' as a plain form post: a click before the join page's code has loaded still joins (the page then
 * opens the timeline). Once hydrated the page joins through the API instead, with its toast.
 */
export async function action({ params, context }: Route.ActionArgs) {
  const shareCode = shareCodeOf(params);
  if (shareCode === null) throw data("Not found", { status: 404 });
  const user = requireUser(context);
  const { db, room } = app(context);
  try {
    const joined = await joinSharedTimeline({ db, room }, user, shareCode);
    return redirect(bookPath(joined.timeline.id, joined.timeline.accessLevel));
  } catch (error) {
    if (error instanceof HttpError) throw data(error.message, { status: error.status });
    throw error;
  }
}

// The screen holds every event once hydrated: switching the order, the filter or the layout needs no reload.
export function shouldRevalidate({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return onlyViewChanged(currentUrl, nextUrl) ? false : defaultShouldRevalidate;
}

export default function TimelineRoute({ loaderData, params }: Route.ComponentProps) {
  const shareCode = shareCodeOf(params);
  if (loaderData.invite) {
    return (
      <Suspense fallback={null}>
        <JoinSharedTimeline key={shareCode} invite={loaderData.invite} shareCode={shareCode ?? ""} />
      </Suspense>
    );
  }
  return <Timeline data={loaderData} shareCode={shareCode} />;
}

function Timeline({
  data: loaderData,
  shareCode,
}: {
  data: Extract<Route.ComponentProps["loaderData"], { invite: null }>;
  shareCode: string | null;
}) {
  const { id, accessLevel } = loaderData.timeline;
  // The same element while the timeline is the same, so the memoized screen skips the route's re-renders.
  const assistant = useMemo(
    () => (accessLevel === "viewer" ? undefined : <LazyStoryAssistant timelineId={id} shareCode={shareCode} />),
    [id, accessLevel, shareCode],
  );
  return (
    <TimelineScreen
      key={id}
      timeline={loaderData.timeline}
      page={loaderData.page}
      entities={loaderData.entities}
      plotlines={loaderData.plotlines}
      chapters={loaderData.chapters}
      madeAt={loaderData.madeAt}
      premium={loaderData.premium}
      myUserId={loaderData.userId}
      shareCode={shareCode}
      openShare={loaderData.openShare}
      assistant={assistant}
    />
  );
}

export function ErrorBoundary() {
  return isNotFound(useRouteError()) ? <TimelineNotFound /> : <GeneralErrorBoundary />;
}
