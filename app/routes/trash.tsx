import { Form, Link, useNavigation } from "react-router";
import { Page, PageHeading } from "~/ui/page";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { app, requireUser } from "~/lib/session.server";
import { HttpError } from "../../worker/lib/errors";
import { TRASH_DAYS, type TrashItem, listTrash, restoreFromTrash, trashKind } from "../../worker/services/trash";
import type { Route } from "./+types/trash";

export const meta = () => [{ title: "Trash · StoryWeave" }];

const DAY_MS = 24 * 3600_000;

/** '3 days ago', 'today': worked out on the server so the page hydrates as rendered. */
function ago(iso: string, now: number) {
  const days = Math.floor((now - Date.parse(iso)) / DAY_MS);
  if (days <= 0) {
    const hours = Math.floor((now - Date.parse(iso)) / 3600_000);
    if (hours <= 0) return "just now";
    return hours === 1 ? "1 hour ago" : `${hours} hours ago`;
  }
  return days === 1 ? "yesterday" : `${days} days ago`;
}

const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

export type TrashRow = TrashItem & { ago: string; date: string };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const now = Date.now();
  const items = await listTrash(app(context).db, user);
  return { days: TRASH_DAYS, items: items.map((i): TrashRow => ({ ...i, ago: ago(i.deletedAt, now), date: dateOf(i.deletedAt) })) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, room } = app(context);
  const form = await request.formData();
  const kind = String(form.get("kind") ?? "");
  const id = Number(form.get("id"));
  try {
    if (!Number.isSafeInteger(id) || id < 1) return { ok: false as const, kind, id, error: "Not found" };
    const restored = await restoreFromTrash({ db, room }, user, trashKind(kind), id);
    return { ok: true as const, kind, id, title: restored.title };
  } catch (error) {
    if (error instanceof HttpError) return { ok: false as const, kind, id, error: error.message };
    throw error;
  }
}

type Restore = Awaited<ReturnType<typeof action>>;

/** One deleted item. A plain form (no fetcher: nothing new in the shared router code every page loads). */
function TrashEntry({ item, result }: { item: TrashRow; result: Restore | undefined }) {
  const navigation = useNavigation();
  const pending = navigation.formData?.get("id") === String(item.id) && navigation.formData?.get("kind") === item.kind;
  const kindLabel = item.kind === "event" ? "Scene" : "Timeline";
  const by = item.deletedBy?.name ?? "a former writer";
  return (
    <li>
      <Card className="flex flex-wrap items-center justify-between gap-3 p-4">
        <div className="min-w-0">
          <p className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{kindLabel}</p>
          <h2 dir="auto" className="truncate font-semibold">
            {item.title}
          </h2>
          {item.kind === "event" ? <p className="truncate text-sm text-stone-700">in {item.timelineTitle}</p> : null}
          <p className="text-sm text-stone-700">
            Deleted by {by} {item.ago} (<time dateTime={item.deletedAt}>{item.date}</time>)
          </p>
          {result && !result.ok ? (
            <p role="alert" className="mt-1 text-sm text-red-700">
              {result.error}
            </p>
          ) : null}
        </div>
        <Form method="post">
          <input type="hidden" name="kind" value={item.kind} />
          <input type="hidden" name="id" value={item.id} />
          <Button type="submit" variant="outline" disabled={pending} aria-label={`Restore ${kindLabel.toLowerCase()} ${item.title}`}>
            {pending ? "Restoring..." : "Restore"}
          </Button>
        </Form>
      </Card>
    </li>
  );
}

export default function Trash({ loaderData, actionData }: Route.ComponentProps) {
  const { items, days } = loaderData;
  const restored = actionData?.ok ? actionData.title : null;
  return (
    <Page className="max-w-3xl">
      <PageHeading>Trash</PageHeading>
      <p className="mb-6 text-stone-700">
        Deleted scenes and timelines stay here for {days} days, then they are deleted for good. Restoring puts them back where they were.
      </p>
      <p role="status" className="mb-4 empty:hidden">
        {restored ? `Restored “${restored}”.` : ""}
      </p>
      {items.length === 0 ? (
        <p className="rounded-lg border border-dashed border-stone-300 p-6 text-center text-stone-700">
          Trash is empty.{" "}
          <Link to="/timeline" className="underline">
            Back to your timelines
          </Link>
        </p>
      ) : (
        <ul className="space-y-3" aria-label="Deleted items">
          {items.map((item) => (
            <TrashEntry
              key={`${item.kind}-${item.id}`}
              item={item}
              result={actionData && !actionData.ok && actionData.kind === item.kind && actionData.id === item.id ? actionData : undefined}
            />
          ))}
        </ul>
      )}
    </Page>
  );
}
