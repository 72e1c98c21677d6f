import { Form, Link, data, useNavigation } from "react-router";
import { Page, PageHeading } from "~/ui/page";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Label } from "~/ui/input";
import { app, requireUser } from "~/lib/session.server";
import { formError } from "~/lib/form.server";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { seriesMessages } from "../../db/domain/validation-series";
import { addBook, getSeries } from "../../worker/services/series";
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
  const form = await request.formData();
  const timelineId = idOf(String(form.get("timelineId") ?? ""));
  if (!timelineId) return data({ formError: seriesMessages.timelineId }, 400);
  try {
    await addBook(app(context).db, user, idOf(params.id), timelineId);
    return { formError: null };
  } catch (error) {
    return formError(error);
  }
}

const words = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "word" : "words"}`;

export default function SeriesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { series, candidates } = loaderData;
  const adding = useNavigation().state === "submitting";
  const total = series.timelines.reduce((sum, b) => sum + b.wordCount, 0);
  return (
    <Page>
      <PageHeading>{series.title}</PageHeading>
      <p className="mb-6 text-stone-700">
        A series: its books share one codex. {series.timelines.length} {series.timelines.length === 1 ? "book" : "books"} · {words(total)}
      </p>
      <section aria-labelledby="books-heading">
        <h2 id="books-heading" className="mb-3 font-serif text-2xl font-bold">
          Books
        </h2>
        <ol className="space-y-3">
          {series.timelines.map((b) => (
            <li key={b.id}>
              <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
                <Link to={`/timeline/${b.id}`} className="font-semibold text-brand-800 underline-offset-2 hover:underline">
                  Book {b.position}: {b.title}
                </Link>
                <span className="text-sm text-stone-700">{words(b.wordCount)}</span>
              </Card>
            </li>
          ))}
        </ol>
      </section>
      {series.isOwner ? (
        <Form method="post" className="mt-8 flex flex-wrap items-end gap-3">
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
          <Button type="submit" disabled={adding || candidates.length === 0}>
            {adding ? "Adding..." : "Add to series"}
          </Button>
          {actionData?.formError ? (
            <p role="alert" className="w-full text-sm text-red-800">
              {actionData.formError}
            </p>
          ) : null}
        </Form>
      ) : null}
    </Page>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
