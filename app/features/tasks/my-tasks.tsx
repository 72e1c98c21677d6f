import { useEffect, useState } from "react";
import { Link } from "react-router";
import { OFFLINE_MESSAGE } from "~/features/offline/offline-lock";
import { useOffline } from "~/features/offline/use-offline";
import type { MyTask } from "../../../worker/services/tasks";

/** The home page's 'My tasks' (DESIGN.md §12): open tasks assigned to me across timelines, each linking to its scene. */
export function MyTasks() {
  const [tasks, setTasks] = useState<MyTask[] | null>(null);
  const [failed, setFailed] = useState(false);
  const offline = useOffline();
  // Read when the page opens, and again when the network comes back if they could not be read without it (the
  // service worker keeps no API answers); a list read before the network went stays shown.
  const missing = tasks === null;
  useEffect(() => {
    if (offline || !missing) return;
    let current = true;
    setFailed(false);
    fetch("/api/account/tasks", { credentials: "same-origin" })
      .then((res) => (res.ok ? (res.json() as Promise<MyTask[]>) : Promise.reject(new Error(String(res.status)))))
      .then((list) => current && setTasks(list))
      .catch(() => current && setFailed(true));
    return () => {
      current = false;
    };
  }, [offline, missing]);
  // Offline with nothing read yet: no error, the writer is told why (a request that failed as the network went too).
  const unreachable = tasks === null && (offline || (failed && typeof navigator !== "undefined" && !navigator.onLine));
  // Nothing assigned: the section stays out of the way.
  if (!failed && !unreachable && (tasks === null || tasks.length === 0)) return null;
  return (
    <section aria-labelledby="my-tasks-heading" className="mt-10" data-testid="my-tasks">
      <h2 id="my-tasks-heading" className="mb-4 font-serif text-2xl font-bold">
        My tasks
      </h2>
      {unreachable ? (
        <p className="text-stone-600" data-testid="my-tasks-offline">
          {OFFLINE_MESSAGE}: your tasks show when you are back online.
        </p>
      ) : failed ? (
        <p className="text-stone-600">Could not load your tasks.</p>
      ) : (
        <ul className="space-y-2">
          {(tasks ?? []).map((t) => (
            <li key={t.id} className="rounded-md border border-stone-200 bg-white px-3 py-2 text-sm">
              <Link
                to={`/timeline/${t.timelineId}?event=${t.eventId}`}
                className="font-medium text-stone-900 underline-offset-2 hover:underline"
              >
                {t.text}
              </Link>
              <span className="block text-xs text-stone-600">
                {t.eventTitle} · {t.timelineTitle}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
