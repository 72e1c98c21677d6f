import { Plus, Sparkles } from "lucide-react";
import { Select } from "radix-ui";
import { ChevronDown } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigation, useRevalidator, useSearchParams } from "react-router";
import { OfflineNote, OnlineOnlyLink, useOfflineLock } from "~/features/offline/offline-lock";
import { localeOf } from "../../../db/domain/calendar/locale";
import { type EventPage, listEventsPage } from "../../../worker/services/events";
import { isPremium } from "../../../worker/services/plans";
import { FREE_TIMELINE_LIMIT } from "../../../db/domain/rules";
import { listTimelines, type TimelineView } from "../../../worker/services/timelines";
import { type SeriesView, listSeries } from "../../../worker/services/series";
import { listInvitationsWaitingFor } from "../../../worker/services/invitations";
import { Page, PageHeading } from "~/ui/page";
import { TimelineCard } from "~/features/timeline/timeline-card";
import { HomeEvents } from "~/features/timeline/timeline-home-events";
import { MyTasks } from "~/features/tasks/my-tasks";
import { ImportDialog } from "~/features/transfer/import-dialog";
import { NewSeriesDialog } from "~/features/series/new-series-dialog";
import { WaitingInvitations } from "~/features/share/waiting-invitations";
import { EventDialog, TimelineDialog } from "~/features/timeline/timeline-forms";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { ConfirmDialog } from "~/ui/dialog";
import { useFreshData } from "~/lib/use-fresh-data";
import { useMutation } from "~/lib/use-mutation";
import { client, unwrap } from "~/lib/client";
import { app, requireUser } from "~/lib/session.server";
import { errorToast } from "~/lib/toast";
import type { Route } from "./+types/home";

export const meta = () => [{ title: "Timeline · StoryWeave" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const premium = isPremium(user);
  try {
    const [timelines, series, waiting] = await Promise.all([
      listTimelines(db, user),
      listSeries(db, user),
      listInvitationsWaitingFor(db, user),
    ]);
    const requested = Number(new URL(request.url).searchParams.get("timeline"));
    const selected = timelines.find((t) => t.id === requested) ?? timelines[0] ?? null;
    // The first screenful of the selected timeline's events and their count; the rest after hydration.
    const page: EventPage = selected
      ? await listEventsPage(db, selected.id, { locale: localeOf(request.headers.get("Accept-Language")) })
      : { events: [], total: 0, all: 0 };
    return { ok: true as const, timelines, series, waiting, selectedId: selected?.id ?? null, page, premium };
  } catch (error) {
    console.error("[timeline home] failed to load:", error);
    const page: EventPage = { events: [], total: 0, all: 0 };
    return {
      ok: false as const,
      timelines: [] as TimelineView[],
      series: [] as SeriesView[],
      waiting: [],
      selectedId: null,
      page,
      premium,
    };
  }
}

export default function TimelineHome({ loaderData }: Route.ComponentProps) {
  const { timelines, series, waiting, selectedId, page, premium } = loaderData;
  const [, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const [creating, setCreating] = useState(false);
  const [creatingSeries, setCreatingSeries] = useState(false);
  const [addingEvent, setAddingEvent] = useState(false);
  const [editing, setEditing] = useState<TimelineView | null>(null);
  const [deleting, setDeleting] = useState<TimelineView | null>(null);
  // Creating, renaming and deleting a timeline (or a series, or an event from here) are not queued with no network:
  // those controls say 'You're offline' (DESIGN.md §12), written once in the actions row.
  const { lock, note } = useOfflineLock();
  const deleteTimeline = useMutation(
    (timeline: TimelineView) => unwrap(client.api.timelines[":id"].$delete({ param: { id: String(timeline.id) } })),
    {
      success: (_, timeline) => ({
        title: "Success",
        description: "Timeline deleted successfully",
        note: "It stays in Trash for 30 days.",
        action: {
          label: "Undo",
          onClick: () => void import("~/features/trash/undo").then((m) => m.undoDelete("timeline", timeline.id, revalidator.revalidate)),
        },
      }),
      error: () => "Failed to delete timeline",
      // Deleting the selected timeline selects another, which loads anyway.
      revalidate: (_, timeline) => timeline.id !== selectedId,
      onSuccess: (_, timeline) => {
        setDeleting(null);
        if (timeline.id === selectedId) setSearchParams({}, { replace: true });
      },
    },
  );
  useFreshData(page.all === 0 && selectedId !== null, selectedId);

  const owned = timelines.filter((t) => t.isOwner).length;
  const atLimit = !premium && owned >= FREE_TIMELINE_LIMIT;
  const selected = timelines.find((t) => t.id === selectedId) ?? null;
  const canAddEvent = !selected?.isShared || selected.isOwner || selected.accessLevel === "collaborator";
  const loadingEvents = navigation.state === "loading" && navigation.location?.pathname === "/timeline";

  const select = (id: number) => setSearchParams({ timeline: String(id) }, { replace: true, preventScrollReset: true });
  // A timeline just created is selected (SPEC) and its Events section brought into view with the focus on its heading,
  // once its (empty or templated) events have loaded: the new book is what the writer sees next.
  const [revealing, setRevealing] = useState<number | null>(null);
  const eventsHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (revealing === null || revealing !== selectedId || loadingEvents) return;
    const heading = eventsHeading.current;
    if (!heading) return;
    setRevealing(null);
    heading.scrollIntoView({ block: "start" });
    heading.focus({ preventScroll: true });
  }, [revealing, selectedId, loadingEvents]);

  const confirmDelete = () => (deleting ? void deleteTimeline.run(deleting) : undefined);

  return (
    <Page oneOfflineNote>
      <PageHeading
        actions={
          <>
            <Select.Root
              value={selectedId ? String(selectedId) : undefined}
              onValueChange={(v) => select(Number(v))}
              disabled={timelines.length === 0}
            >
              <Select.Trigger
                aria-label="Select timeline"
                className="inline-flex h-10 w-[200px] items-center justify-between gap-2 rounded-md border border-stone-300 bg-white px-3 text-sm disabled:opacity-50"
              >
                <span className="truncate">
                  <Select.Value placeholder="Select a timeline" />
                </span>
                <ChevronDown aria-hidden="true" className="h-4 w-4 shrink-0 opacity-60" />
              </Select.Trigger>
              <Select.Portal>
                <Select.Content
                  position="popper"
                  sideOffset={4}
                  className="z-50 max-h-80 w-[200px] overflow-hidden rounded-md border border-stone-200 bg-white shadow-lg"
                >
                  <Select.Viewport className="p-1">
                    {timelines.map((t) => (
                      <Select.Item
                        key={t.id}
                        value={String(t.id)}
                        className="cursor-pointer truncate rounded px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-brand-50 data-[state=checked]:font-semibold"
                      >
                        <Select.ItemText>{t.title}</Select.ItemText>
                      </Select.Item>
                    ))}
                  </Select.Viewport>
                </Select.Content>
              </Select.Portal>
            </Select.Root>
            <OfflineNote className="self-center" />
            {note}
            {canAddEvent ? (
              <Button
                variant="outline"
                onClick={() => (selectedId ? setAddingEvent(true) : errorToast("Please select a timeline first"))}
                {...lock}
              >
                <Plus aria-hidden="true" className="h-4 w-4" /> Add Event
              </Button>
            ) : null}
            {owned > 0 ? (
              <Button variant="outline" onClick={() => setCreatingSeries(true)} {...lock}>
                <Plus aria-hidden="true" className="h-4 w-4" /> New Series
              </Button>
            ) : null}
            <Button asChild variant="ghost">
              <Link to="/trash">Trash</Link>
            </Button>
            {/* Import sits beside New Timeline: both start a book. */}
            <ImportDialog />
            {atLimit ? (
              <OnlineOnlyLink to="/upgrade" noteClassName="self-center">
                <Sparkles aria-hidden="true" className="h-4 w-4" /> Upgrade for Unlimited Timelines
              </OnlineOnlyLink>
            ) : (
              <Button onClick={() => setCreating(true)} {...lock}>
                <Plus aria-hidden="true" className="h-4 w-4" /> New Timeline
              </Button>
            )}
          </>
        }
      >
        Timeline
      </PageHeading>

      <WaitingInvitations invitations={waiting} />
      {!loaderData.ok ? (
        <Card className="p-8 text-center">
          <p className="text-red-800">Error loading timelines. Please try again.</p>
          <Button className="mt-4" variant="outline" onClick={() => revalidator.revalidate()}>
            Retry
          </Button>
        </Card>
      ) : revalidator.state === "loading" && timelines.length === 0 ? (
        <p className="py-12 text-center text-stone-600">Loading timelines...</p>
      ) : timelines.length === 0 ? (
        <Card className="p-10 text-center">
          <p className="text-stone-700">No timelines yet. Create your first timeline to get started!</p>
        </Card>
      ) : (
        <section aria-label="Your timelines" className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3">
          {timelines.map((t) => (
            <TimelineCard
              key={t.id}
              timeline={t}
              premium={premium}
              selected={t.id === selectedId}
              onEdit={() => setEditing(t)}
              onDelete={() => setDeleting(t)}
              lock={lock}
            />
          ))}
        </section>
      )}

      {series.length > 0 ? (
        <section aria-labelledby="series-heading" className="mt-8">
          <h2 id="series-heading" className="mb-3 font-serif text-2xl font-bold">
            Your series
          </h2>
          <ul className="flex flex-wrap gap-3">
            {series.map((s) => (
              <li key={s.id}>
                <Link to={`/series/${s.id}`} className="font-semibold text-brand-800 underline underline-offset-2">
                  {s.title}
                </Link>{" "}
                <span className="text-sm text-stone-700">
                  · {s.timelines.length} {s.timelines.length === 1 ? "book" : "books"}
                </span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <MyTasks />

      {selected ? (
        <section aria-labelledby="events-heading" className="mt-10">
          <h2
            id="events-heading"
            ref={eventsHeading}
            tabIndex={-1}
            className="mb-4 scroll-mt-20 font-serif text-2xl font-bold outline-none"
          >
            Events <span className="text-base font-normal text-stone-600">· {selected.title}</span>
          </h2>
          {loadingEvents ? (
            <p className="text-stone-600">Loading events...</p>
          ) : page.all === 0 ? (
            <p className="text-stone-600">No events yet. Create your first event!</p>
          ) : (
            <HomeEvents timelineId={selected.id} page={page} />
          )}
        </section>
      ) : null}

      <TimelineDialog
        open={creating}
        onOpenChange={setCreating}
        onSaved={(t) => {
          select(t.id);
          setRevealing(t.id);
        }}
      />
      <NewSeriesDialog
        open={creatingSeries}
        onOpenChange={setCreatingSeries}
        timelines={timelines.filter((t) => t.isOwner).map((t) => ({ id: t.id, title: t.title }))}
      />
      <TimelineDialog open={editing !== null} onOpenChange={(o) => !o && setEditing(null)} timeline={editing} />
      <EventDialog open={addingEvent} onOpenChange={setAddingEvent} timelineId={selectedId} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Are you sure?"
        description="This will move the timeline and all its events to Trash. You can restore it from Trash for 30 days."
        confirmLabel="Delete Timeline"
        pendingLabel="Deleting..."
        pending={deleteTimeline.pending}
        onConfirm={confirmDelete}
        needsNetwork
      />
    </Page>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
