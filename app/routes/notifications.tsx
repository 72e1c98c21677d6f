import { Form, Link, useFetcher, useNavigate } from "react-router";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { Page, PageHeading } from "~/ui/page";
import { app, requireUser } from "~/lib/session.server";
import { type InboxItem, listInbox, markNotificationsRead } from "../../worker/services/notifications";
import type { Route } from "./+types/notifications";

export const meta = () => [{ title: "Notifications · StoryWeave" }];

const dateOf = (iso: string) => new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const items = await listInbox(app(context).db, user.id);
  return { items: items.map((n) => ({ ...n, date: dateOf(n.createdAt) })) };
}

/** 'Mark all as read', or one notification (opened or marked). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const form = await request.formData();
  const id = Number(form.get("id"));
  const ids = Number.isSafeInteger(id) && id > 0 ? [id] : undefined;
  if (form.get("intent") === "read-one" && !ids) return { ok: false };
  await markNotificationsRead(app(context).db, user.id, ids);
  return { ok: true };
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { items } = loaderData;
  const unread = items.filter((n) => !n.read).length;
  return (
    <Page className="max-w-3xl">
      <PageHeading
        actions={
          unread > 0 ? (
            <Form method="post">
              <Button type="submit" variant="outline" size="sm" name="intent" value="read-all">
                Mark all as read
              </Button>
            </Form>
          ) : null
        }
      >
        Notifications
      </PageHeading>
      <p className="mb-4 text-sm text-stone-600">
        {unread === 0 ? "You're all caught up." : `${unread} unread`} Mentions, replies to your threads and timelines shared with you arrive
        here (unread ones stay until you read them; the latest 20 read ones are kept).
      </p>
      {items.length === 0 ? (
        <Card className="p-6 text-center text-stone-600">No notifications yet.</Card>
      ) : (
        <ul className="space-y-2" aria-label="Notifications">
          {items.map((n) => (
            <Notification key={n.id} item={n} />
          ))}
        </ul>
      )}
    </Page>
  );
}

function Notification({ item }: { item: InboxItem & { date: string } }) {
  const fetcher = useFetcher();
  const navigate = useNavigate();
  const read = item.read || fetcher.state !== "idle";
  const markRead = () => fetcher.submit({ intent: "read-one", id: String(item.id) }, { method: "post" });
  // Opening an unread one marks it read first, so the bell is right on the page it leads to.
  const open = async (e: React.MouseEvent) => {
    e.preventDefault();
    await markRead();
    navigate(item.path);
  };
  return (
    <li
      data-testid="notification"
      data-read={read ? "true" : "false"}
      className={`rounded-md border p-3 ${read ? "border-stone-200 bg-white" : "border-brand-300 bg-brand-50"}`}
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium">
            {read ? null : <span className="sr-only">Unread: </span>}
            <Link to={item.path} className="text-brand-700 hover:underline" onClick={read ? undefined : open}>
              {item.title}
            </Link>
          </p>
          <p className="text-sm text-stone-700">{item.message}</p>
          <p className="text-xs text-stone-600">
            <time dateTime={item.createdAt}>{item.date}</time>
          </p>
        </div>
        {read ? null : (
          <Button variant="link" size="sm" onClick={markRead}>
            Mark as read<span className="sr-only">: {item.title}</span>
          </Button>
        )}
      </div>
    </li>
  );
}
