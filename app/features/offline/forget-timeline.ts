import { forgetLocalDocs, forgetLocalDocsIndex, localDocsOf, pendingDocs } from "~/lib/offline-docs";
import { DATA_CACHE, PAGE_CACHE } from "./cache-names";
import { reportRefused } from "./not-saved-store";

// Access to a timeline ended (the server answered 403/404 for it: the writer was removed, the timeline deleted):
// nothing of it stays readable on this device. What waited to be sent is kept under 'Changes not saved' instead.

const ENDED = "You no longer have access to this timeline";

/** Whether a page or loader-data address the service worker kept is this timeline's (`/timeline/{id}`, its `.data`, `/manuscript`, …). */
export function isTimelinePage(pathname: string, timelineId: number) {
  const page = `/timeline/${timelineId}`;
  return pathname === page || pathname.startsWith(`${page}/`) || pathname.startsWith(`${page}.`);
}

/** Pages that may show it too: the list of timelines (its card) and share links' pages (a code does not say which). */
const mayShowIt = (pathname: string) =>
  pathname === "/timeline" || pathname === "/timeline.data" || pathname.startsWith("/timeline/shared/");

/**
 * The service worker's kept pages of the timeline and, when the device held anything of it, those that may show it
 * (they come back at the next visit online). A timeline this device never held leaves the other pages alone.
 */
async function forgetCachedPagesOf(timelineId: number, held: boolean) {
  if (typeof caches === "undefined") return;
  const kept = await Promise.all(
    [PAGE_CACHE, DATA_CACHE].map(async (name) => {
      if (!(await caches.has(name).catch(() => false))) return null;
      const cache = await caches.open(name);
      return { cache, requests: (await cache.keys()).map((r) => ({ r, path: new URL(r.url).pathname })) };
    }),
  );
  const own = kept.some((c) => c?.requests.some(({ path }) => isTimelinePage(path, timelineId)));
  const goes = (path: string) => isTimelinePage(path, timelineId) || ((held || own) && mayShowIt(path));
  await Promise.all(kept.flatMap((c) => (c ? c.requests.filter(({ path }) => goes(path)).map(({ r }) => c.cache.delete(r)) : [])));
}

const kindWords: Record<string, string> = {
  "chapter.create": "Add chapter",
  "chapter.update": "Change chapter",
  "chapter.move": "Move chapter",
  "chapter.delete": "Delete chapter",
};

/** A queued change's words: its kind ('Add chapter "Harbour"'), and the text it carried for copying. */
function describeQueued(change: unknown): { what: string; text: string } {
  const fields = (typeof change === "object" && change !== null ? change : {}) as Record<string, unknown>;
  const kind = typeof fields.kind === "string" ? fields.kind : "";
  const title = typeof fields.title === "string" ? fields.title : "";
  const content = typeof fields.content === "string" ? fields.content : "";
  const words = kindWords[kind] ?? (kind ? `A change (${kind.replace(".", " ")})` : "A change");
  return { what: title ? `${words} "${title}"` : words, text: [title, content].filter(Boolean).join("\n\n") };
}

const running = new Map<number, Promise<void>>();

/**
 * Deletes this device's copy of the timeline: its scenes' copies (y-indexeddb), its kept lists and queued changes
 * (the outbox) and the pages the service worker kept of it. Scene text typed here and never sent, and the queued
 * changes, go to 'Changes not saved' with their text first. `eventIds`: scenes the page knows of, besides the noted.
 */
export function forgetTimelineOnDevice(timelineId: number, eventIds: number[] = []): Promise<void> {
  if (typeof window === "undefined" || !Number.isInteger(timelineId) || timelineId <= 0) return Promise.resolve();
  const current = running.get(timelineId);
  if (current) return current;
  const work = forget(timelineId, eventIds).finally(() => {
    running.delete(timelineId);
  });
  running.set(timelineId, work);
  return work;
}

async function forget(timelineId: number, eventIds: number[]) {
  const ids = [...new Set([...localDocsOf(timelineId), ...eventIds])];
  const unsent = pendingDocs(ids);
  if (unsent.length > 0) {
    const { localDocText } = await import("./local-doc-text");
    for (const id of unsent) {
      const text = await localDocText(id).catch(() => "");
      if (text.trim()) reportRefused({ what: "Scene text typed on this device", text, message: ENDED });
    }
  }
  const { forgetTimelineInOutbox } = await import("./outbox");
  const queued = await forgetTimelineInOutbox(timelineId).catch(() => [] as unknown[]);
  for (const change of queued) reportRefused({ ...describeQueued(change), message: ENDED });
  const held = ids.length > 0 || queued.length > 0;
  await Promise.all([forgetLocalDocs(ids), forgetCachedPagesOf(timelineId, held).catch(() => undefined)]);
  forgetLocalDocsIndex(timelineId);
}
