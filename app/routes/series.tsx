import { ArrowDown, ArrowUp } from "lucide-react";
import { useState } from "react";
import { Form, Link, data, useNavigation, useSubmit } from "react-router";
import { Page, PageHeading } from "~/ui/page";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Input, Label } from "~/ui/input";
import { ConfirmDialog } from "~/ui/dialog";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { app, requireUser } from "~/lib/session.server";
import { formError } from "~/lib/form.server";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { SeriesTitleSchema, seriesMessages } from "../../db/domain/validation-series";
import { addBook, getSeries, removeBook, updateSeries } from "../../worker/services/series";
import { listTimelines } from "../../worker/services/timelines";
import type { Route } from "./+types/series";

export const meta = ({ loaderData }: Route.MetaArgs) => [{ title: `${loaderData?.series.title ?? "Series not found"} · StoryWeave` }];

const idOf = (value: string | undefined) => (value && /^\d{1,12}$/.test(value) ? Number(value) : 0);

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = app(context);
  const id = idOf(params.id);
  if (!id) throw data(seriesMessages.notFound, { status: 404 });
  const series = await getSeries(db, user, id).catch(rethrowAsNotFound);
  // The owner's timelines that could join: their own, in no series.
  const candidates = series.isOwner
    ? (await listTimelines(db, user)).filter((t) => t.isOwner && !series.timelines.some((b) => b.id === t.id))
    : [];
  return { series, candidates: candidates.map((t) => ({ id: t.id, title: t.title })) };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, room } = app(context);
  const seriesId = idOf(params.id);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "add");
  const timelineId = idOf(String(form.get("timelineId") ?? ""));
  try {
    if (intent === "rename") {
      const title = SeriesTitleSchema.safeParse(form.get("title") ?? "");
      if (!title.success) return data({ formError: title.error.issues[0]?.message ?? seriesMessages.titleRequired, intent }, 400);
      await updateSeries(db, user, seriesId, { title: title.data });
      return { formError: null, intent };
    }
    if (!timelineId) return data({ formError: seriesMessages.timelineId, intent }, 400);
    if (intent === "remove") {
      await removeBook({ db, room }, user, seriesId, timelineId);
      return { formError: null, intent };
    }
    if (intent === "up" || intent === "down") {
      const { timelines: books } = await getSeries(db, user, seriesId);
      const order = books.map((b) => b.id);
      const at = order.indexOf(timelineId);
      const to = intent === "up" ? at - 1 : at + 1;
      if (at < 0) return data({ formError: seriesMessages.notInSeries, intent }, 400);
      if (to >= 0 && to < order.length) {
        [order[at], order[to]] = [order[to], order[at]];
        await updateSeries(db, user, seriesId, { timelineIds: order });
      }
      return { formError: null, intent };
    }
    await addBook(db, user, seriesId, timelineId);
    return { formError: null, intent };
  } catch (error) {
    const failed = formError(error);
    return data({ formError: failed.data.formError ?? null, intent }, failed.init ?? undefined);
  }
}

const words = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "word" : "words"}`;

export default function SeriesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { series, candidates } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "add") : null;
  const total = series.timelines.reduce((sum, b) => sum + b.wordCount, 0);
  const error = (intent: string) =>
    actionData?.formError && actionData.intent === intent ? (
      <p role="alert" className="w-full text-sm text-red-800">
        {actionData.formError}
      </p>
    ) : null;
  return (
    <Page>
      <PageHeading>{series.title}</PageHeading>
      <p className="mb-6 text-stone-700">
        A series: its books share one codex. {series.timelines.length} {series.timelines.length === 1 ? "book" : "books"} · {words(total)}
      </p>
      {series.isOwner ? (
        <Form method="post" className="mb-8 flex flex-wrap items-end gap-3" key={series.title}>
          <input type="hidden" name="intent" value="rename" />
          <div className="space-y-1.5">
            <Label htmlFor="series-title">Series title</Label>
            <Input id="series-title" name="title" defaultValue={series.title} maxLength={200} className="w-72" required />
          </div>
          <OnlineOnlyButton type="submit" variant="outline" disabled={busy === "rename"}>
            {busy === "rename" ? "Renaming..." : "Rename"}
          </OnlineOnlyButton>
          {error("rename")}
        </Form>
      ) : null}
      <section aria-labelledby="books-heading">
        <h2 id="books-heading" className="mb-3 font-serif text-2xl font-bold">
          Books
        </h2>
        {series.timelines.length === 0 ? <p className="text-stone-700">No books in this series yet.</p> : null}
        <ol className="space-y-3">
          {series.timelines.map((b, i) => (
            <li key={b.id}>
              <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
                <Link to={`/timeline/${b.id}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
                  Book {b.position}: {b.title}
                </Link>
                <span className="flex flex-wrap items-center gap-2 text-sm text-stone-700">
                  <span>{words(b.wordCount)}</span>
                  {series.isOwner ? (
                    <BookControls book={b} first={i === 0} last={i === series.timelines.length - 1} busy={busy !== null} />
                  ) : null}
                </span>
              </Card>
            </li>
          ))}
        </ol>
        {error("up") ?? error("down") ?? error("remove")}
      </section>
      {series.isOwner ? (
        <Form method="post" className="mt-8 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="add" />
          <div className="space-y-1.5">
            <Label htmlFor="add-book">Add a book</Label>
            <select
              id="add-book"
              name="timelineId"
              className="block h-10 w-64 rounded-md border border-stone-300 bg-white px-3 text-sm"
              disabled={candidates.length === 0}
            >
              {candidates.length === 0 ? <option value="">No other timelines of yours</option> : null}
              {candidates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.title}
                </option>
              ))}
            </select>
          </div>
          <OnlineOnlyButton type="submit" disabled={busy === "add" || candidates.length === 0}>
            {busy === "add" ? "Adding..." : "Add to series"}
          </OnlineOnlyButton>
          {error("add")}
        </Form>
      ) : null}
    </Page>
  );
}

/** The owner's controls on one book: move it up or down, or take it out of the series (after a confirmation). */
function BookControls({ book, first, last, busy }: { book: { id: number; title: string }; first: boolean; last: boolean; busy: boolean }) {
  const submit = useSubmit();
  const [confirming, setConfirming] = useState(false);
  const move = (intent: "up" | "down") => (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="timelineId" value={book.id} />
      <OnlineOnlyButton
        type="submit"
        variant="outline"
        size="sm"
        disabled={busy || (intent === "up" ? first : last)}
        aria-label={`Move "${book.title}" ${intent}`}
      >
        {intent === "up" ? <ArrowUp aria-hidden="true" className="h-4 w-4" /> : <ArrowDown aria-hidden="true" className="h-4 w-4" />}
      </OnlineOnlyButton>
    </Form>
  );
  return (
    <>
      {move("up")}
      {move("down")}
      <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => setConfirming(true)}>
        Remove from series
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Remove "${book.title}" from this series?`}
        description="The book keeps its own copy of every codex entry it uses; the series keeps its entries for the other books."
        confirmLabel="Remove from series"
        pendingLabel="Removing..."
        pending={busy}
        needsNetwork
        onConfirm={() => {
          setConfirming(false);
          submit({ intent: "remove", timelineId: String(book.id) }, { method: "post" });
        }}
      />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
