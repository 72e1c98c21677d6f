import { MutationCache, onlineManager, QueryClient } from "@tanstack/react-query";
import type { DehydratedState, Mutation, MutationFunctionContext } from "@tanstack/react-query";
import {
  type PersistedClient,
  type Persister,
  persistQueryClientRestore,
  persistQueryClientSubscribe,
} from "@tanstack/query-persist-client-core";
import { ApiError } from "~/lib/client";
import { markSynced, setOutboxWaiting } from "~/lib/offline-docs";
import { OUTBOX_DB } from "./cache-names";
import { reachable } from "./use-offline";

/**
 * The client data layer's cache and outbox (docs/client-data.md). One QueryClient for the page's life in the
 * browser: its changes are TanStack Query mutations with a `mutationKey` (their `mutationFn` is set once with
 * `setMutationDefaults`, so a change is its key and serialisable variables). Every change runs in one scope,
 * OUTBOX_SCOPE: one after another, in the order they were made. With no network they pause; paused changes and the
 * cached lists are kept in IndexedDB (OUTBOX_DB) and replayed in order when the network returns, after a reload too.
 */
export const OUTBOX_SCOPE = "outbox";
const STORE = "client";
const KEY = "cache";
/** Kept changes older than this are dropped on restore (a month without network). */
const MAX_AGE = 30 * 24 * 60 * 60 * 1000;

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(OUTBOX_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** One read or write, the database closed again after it (so a logout can delete it while the page stays). */
async function withStore<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const db = await openDb();
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = run(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

/** Saves coalesce: while one is written, only the latest next one waits. */
function idbPersister(): Persister {
  let writing: Promise<void> | null = null;
  let next: PersistedClient | null = null;
  const write = async (): Promise<void> => {
    while (next) {
      const value = next;
      next = null;
      await withStore("readwrite", (s) => s.put(value, KEY)).catch(() => undefined);
    }
    writing = null;
  };
  return {
    persistClient: (client) => {
      if (stopped) return;
      next = client;
      writing ??= write();
      return writing;
    },
    restoreClient: () =>
      withStore<PersistedClient | undefined>("readonly", (s) => s.get(KEY))
        .then((kept) => kept && { ...kept, clientState: resumable(kept.clientState) })
        .catch(() => undefined),
    removeClient: () => withStore("readwrite", (s) => s.delete(KEY)).then(() => undefined),
  };
}

/**
 * A change got no answer (the network or the server went as it was sent): the outbox is offline until the server
 * answers again (set by watchNetwork).
 */
let serverLost: () => void = () => undefined;

/** The seconds the server asked to wait (its Retry-After header, else `retryAfter` in its answer), or null. */
function waitAsked(error: ApiError) {
  if (error.retryAfter !== null) return error.retryAfter;
  const seconds = (error.body as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof seconds === "number" && seconds >= 0 ? seconds : null;
}

/** The server's 'still being made' answer to a repeated create (409 with Retry-After): its seconds, else null. */
function inProgressRetry(error: unknown) {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const seconds = waitAsked(error);
  return seconds !== null && seconds > 0 ? seconds : null;
}

/** 'Too many requests' (429, a rate limit such as chapterWrites): not a refusal, the change waits and goes again. */
const rateLimited = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 429;

/** The longest wait between two tries of a rate-limited change with no Retry-After (a backoff up to it). */
const RATE_LIMIT_BACKOFF_MAX = 5 * 60_000;

/**
 * Whether a change that failed is tried again: a request with no answer (the network, or the server restarted, as it
 * was sent) waits for the server and is sent again, a create with its Idempotency-Key (never made twice); a repeat the
 * server is still making (409 with Retry-After) and a queued change the server rate-limited (429) are sent again
 * after the wait the server asked (`outboxRetryDelay`). The server's refusals (400/403/404/409) are not tried again.
 */
export function outboxRetry(failures: number, error: unknown) {
  if (error instanceof TypeError) {
    serverLost();
    return failures < 50;
  }
  if (rateLimited(error)) return failures < 100;
  return inProgressRetry(error) !== null && failures < 20;
}

/**
 * A change sent while the writer waits for it (made online: the form is open on it) is told at once that the server
 * rate-limited it (its toast), rather than holding the form for the server's wait; everything else as `outboxRetry`.
 */
export const sentNowRetry = (failures: number, error: unknown) => !rateLimited(error) && outboxRetry(failures, error);

/**
 * The longest wait the server's Retry-After is taken for (a rate limit's window is at most an hour): a bigger one
 * would overflow the timer (past 2^31 ms a browser fires at once) and send the change again and again.
 */
const RETRY_AFTER_MAX = 60 * 60_000;

/** How long before the next try: the server's Retry-After (429, or 409 'still being made'), else a backoff. */
export function outboxRetryDelay(failures: number, error: unknown) {
  if (rateLimited(error)) {
    const seconds = waitAsked(error);
    return seconds !== null
      ? Math.min(Math.max(seconds, 1) * 1000, RETRY_AFTER_MAX)
      : Math.min(1000 * 2 ** failures, RATE_LIMIT_BACKOFF_MAX);
  }
  const seconds = inProgressRetry(error);
  return seconds === null ? Math.min(1000 * 2 ** failures, 30_000) : seconds * 1000;
}

/**
 * Which changes are kept on the device: every one not yet confirmed in the outbox's scope, paused, waiting its
 * turn or on its way (a tab closed while a change was sent must not lose it). Not the codex's nor the comments'
 * (their own scopes, never queued).
 */
export const keptChange = (mutation: Pick<Mutation, "state" | "options">) =>
  mutation.state.status === "pending" && mutation.options.scope?.id === OUTBOX_SCOPE;

/** `meta.resent` of a kept change that was on its way when the page closed: it may have reached the server. */
type ResentMeta = { resent?: boolean };

/**
 * Kept changes as a new page resumes them: one that was on its way when the page closed is paused again (TanStack
 * resumes only paused ones), marked `resent` (it may have reached the server: a create is answered once thanks to
 * its Idempotency-Key, a rename or move sets the same values again, a delete that finds nothing is done, see
 * `goneIsDone`; so is one sent and paused to be tried again). Every kept change, even one made online, now counts as
 * queued: no form waits for it, a refusal is listed under 'Changes not saved'.
 */
export function resumable(state: DehydratedState): DehydratedState {
  const mutations = state.mutations.map((mutation) => {
    if (mutation.state.status !== "pending") return mutation;
    const variables = mutation.state.variables;
    const queued =
      typeof variables === "object" && variables !== null && "queued" in variables ? { ...variables, queued: true } : variables;
    // On its way, or sent and paused to be tried again (its answer lost): it may have reached the server.
    const sent = !mutation.state.isPaused || mutation.state.failureCount > 0;
    return {
      ...mutation,
      ...(sent && { meta: { ...mutation.meta, resent: true } satisfies ResentMeta }),
      state: { ...mutation.state, isPaused: true, variables: queued },
    };
  });
  return { ...state, mutations };
}

/** Whether this send repeats one that may have reached the server (`resumable`). */
export const isResent = (context?: Pick<MutationFunctionContext, "meta">) => (context?.meta as ResentMeta | undefined)?.resent === true;

/** Changes (their variables, the same object on each try in this page) a request of which got no answer. */
const unanswered = new WeakSet<object>();

/**
 * A delete's request: sent again after its answer was lost (the page closed while it was on its way, or the network
 * dropped and this page tries it again), a 404 means it was made the first time (nothing left to delete), so it
 * counts as done, not as a refused change. A delete whose first try found nothing is still refused.
 */
export async function goneIsDone<T>(context: Pick<MutationFunctionContext, "meta"> | undefined, change: object, send: () => Promise<T>) {
  try {
    return await send();
  } catch (error) {
    // No answer (fetch's TypeError): it may have reached the server.
    if (error instanceof TypeError) unanswered.add(change);
    const mayBeMade = isResent(context) || unanswered.has(change);
    if (mayBeMade && error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

/**
 * Online for the outbox once the browser says so AND the server answers: a queued change sent at the first 'online'
 * event may reach the server and lose its answer, and a create tried again would then be made twice.
 */
function watchNetwork() {
  onlineManager.setOnline(navigator.onLine);
  onlineManager.setEventListener((setOnline) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const probe = async () => {
      clearTimeout(timer);
      if (!navigator.onLine) return setOnline(false);
      const answered = await reachable();
      // The network may have gone while the server was asked: its 'offline' event came first and must stay.
      if (!navigator.onLine) return setOnline(false);
      if (answered) setOnline(true);
      else timer = setTimeout(() => void probe(), 1_000);
    };
    serverLost = () => {
      if (!onlineManager.isOnline()) return;
      setOnline(false);
      clearTimeout(timer);
      timer = setTimeout(() => void probe(), 1_000);
    };
    const offline = () => {
      clearTimeout(timer);
      setOnline(false);
    };
    const online = () => void probe();
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    // A page read from the device (the service worker's copy) may be told 'online' on a network that goes nowhere:
    // the server is asked once; unreachable, the outbox is offline (and asks again until it answers).
    if (navigator.onLine && navigator.serviceWorker?.controller)
      void reachable().then((ok) => {
        if (ok || !navigator.onLine) return;
        setOnline(false);
        timer = setTimeout(() => void probe(), 1_000);
      });
    return () => {
      clearTimeout(timer);
      serverLost = () => undefined;
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
    };
  });
}

/**
 * Temporary ids (negative: made on the device for a scene or chapter created offline) and the real ids the server
 * gave them. Kept on the device with the outbox, so a reload between a create's answer and a later change that
 * names the temporary id still sends the real one.
 */
const IDS_KEY = "ids";
const realIds = new Map<number, number>();

/** The server's id for a temporary one, once known (the id itself otherwise). */
export const realIdOf = (id: number) => (id < 0 ? (realIds.get(id) ?? id) : id);

/** Whether `id` names the same thing as `other` (one of them may be the temporary id of the other). */
export const sameId = (id: number, other: number) => id === other || realIdOf(id) === realIdOf(other);

export function rememberRealId(tempId: number, id: number) {
  realIds.set(tempId, id);
  if (stopped || typeof indexedDB === "undefined") return;
  const entries = [...realIds];
  void withStore("readwrite", (s) => s.put(entries, IDS_KEY)).catch(() => undefined);
}

async function restoreIds() {
  const entries = await withStore<[number, number][] | undefined>("readonly", (s) => s.get(IDS_KEY)).catch(() => undefined);
  for (const [tempId, id] of entries ?? []) if (!realIds.has(tempId)) realIds.set(tempId, id);
}

let tempIds = 0;
/** A temporary id for something created offline: negative, and unique on this device. */
export const newTempId = () => -(Date.now() * 1000 + (tempIds++ % 1000));

/** A key the server knows a repeated create by (`Idempotency-Key`), made when the change is queued and kept with it. */
export const newIdempotencyKey = () => crypto.randomUUID();

let queryClient: QueryClient | null = null;
let stopped = false;
let unsubscribe: (() => void) | null = null;
let restoring: Promise<void> | null = null;

/** The changes not yet confirmed by the server (paused, waiting their turn, or on their way). */
const waitingCount = (client: QueryClient) => client.getMutationCache().findAll({ status: "pending" }).length;

/**
 * The page's QueryClient: `setup` sets each resource's mutation defaults (before anything kept is restored, so a
 * restored change knows how to send itself). A new one per server render.
 */
export function outboxClient(setup: (client: QueryClient) => void): QueryClient {
  if (typeof window === "undefined") {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    setup(client);
    return client;
  }
  if (queryClient) return queryClient;
  // TanStack assumes online until an event says otherwise; a page reloaded with no network starts offline.
  watchNetwork();
  let waiting = 0;
  const mutationCache = new MutationCache();
  const client = new QueryClient({
    mutationCache,
    defaultOptions: {
      // Never collected while the page is open (what is kept on the device is bounded by MAX_AGE on restore). Not
      // MAX_AGE itself: a month does not fit a timer (2^31 - 1 ms, about 24.8 days), and TanStack's timer then fires
      // at once, so a query no component watched yet was dropped within the render that made it: a seeded list
      // (the loader's chapters, say) was gone before its screen mounted, and was fetched or set again at mount.
      queries: { gcTime: Number.POSITIVE_INFINITY, retry: 1 },
      mutations: {
        scope: { id: OUTBOX_SCOPE },
        gcTime: 60_000,
        retry: outboxRetry,
        retryDelay: outboxRetryDelay,
      },
    },
  });
  mutationCache.subscribe(() => {
    const now = waitingCount(client);
    if (now === waiting) return;
    if (now < waiting && now === 0) markSynced();
    waiting = now;
    setOutboxWaiting(now);
  });
  setup(client);
  // Mounted for the page's life, not only while a QueryClientProvider is (the timeline screen, the Manuscript): a
  // mounted client resumes its paused changes each time the network returns. The timelines page and every other page
  // that sends the kept queue (`resumeKeptChanges`) have no provider: a change paused there (the server not yet
  // answering when the page opened, or a send that got no answer) waited for a 'online' nobody listened to, forever.
  client.mount();
  queryClient = client;
  return client;
}

/**
 * Restores what this account kept on the device (once per page), then keeps it: the lists (`persistQuery`) and
 * the paused changes, which are sent when the network is there. `userId` busts another account's copy.
 */
export function restoreOutbox(client: QueryClient, userId: number, persistQuery: (queryKey: readonly unknown[]) => boolean) {
  if (typeof window === "undefined" || typeof indexedDB === "undefined") return Promise.resolve();
  if (restoring) return restoring;
  stopped = false;
  const persister = idbPersister();
  const options = {
    queryClient: client,
    persister,
    buster: String(userId),
    maxAge: MAX_AGE,
    dehydrateOptions: {
      shouldDehydrateQuery: (query: { queryKey: readonly unknown[]; state: { status: string } }) =>
        query.state.status === "success" && persistQuery(query.queryKey),
      // Paused, waiting their turn, and on their way (resumed by `resumable`).
      shouldDehydrateMutation: keptChange,
    },
  };
  restoring = restoreIds()
    .then(() => persistQueryClientRestore(options))
    .catch(() => undefined)
    .then(() => {
      if (stopped) return;
      unsubscribe = persistQueryClientSubscribe(options);
      if (onlineManager.isOnline()) void client.resumePausedMutations();
    });
  return restoring;
}

/** Changes still waiting (or on their way): a change made now goes behind them, in the outbox. */
export const outboxBusy = () => (queryClient ? waitingCount(queryClient) > 0 : false);

/** Whether the network is there as the client data layer sees it (a change made now is queued when not). */
export const isOnline = () => onlineManager.isOnline();

/** Logout, or another account signed in: the kept lists and queued changes go, in memory and on the device. */
export async function forgetOutbox() {
  stopped = true;
  unsubscribe?.();
  unsubscribe = null;
  restoring = null;
  queryClient?.getMutationCache().clear();
  queryClient?.getQueryCache().clear();
  realIds.clear();
  setOutboxWaiting(0);
  if (typeof indexedDB === "undefined") return;
  await new Promise<void>((resolve) => {
    try {
      const request = indexedDB.deleteDatabase(OUTBOX_DB);
      request.onsuccess = request.onerror = request.onblocked = () => resolve();
    } catch {
      resolve();
    }
  });
}

/** The timeline a kept query (`[resource, timelineId, …]`) or a queued change (`{ timelineId, … }`) belongs to. */
const timelineOfKey = (key: readonly unknown[]) => key[1];
const timelineOfChange = (variables: unknown) =>
  typeof variables === "object" && variables !== null && "timelineId" in variables ? variables.timelineId : undefined;

/**
 * Access to a timeline ended: its kept lists go, in memory and on the device, and its queued changes are taken out
 * of the outbox and answered (the caller shows them under 'Changes not saved'), never sent nor dropped silently.
 */
export async function forgetTimelineInOutbox(timelineId: number): Promise<unknown[]> {
  const taken: unknown[] = [];
  if (queryClient) {
    queryClient.removeQueries({ predicate: (query) => timelineOfKey(query.queryKey) === timelineId });
    const mutations = queryClient.getMutationCache();
    for (const mutation of mutations.getAll()) {
      if (mutation.state.status !== "pending" || !mutation.state.isPaused) continue;
      if (timelineOfChange(mutation.state.variables) !== timelineId) continue;
      taken.push(mutation.state.variables);
      mutations.remove(mutation);
    }
  }
  if (typeof indexedDB === "undefined") return taken;
  // The device's copy (a page that never restored it, or before the next save): without this timeline.
  const listed = typeof indexedDB.databases === "function" ? await indexedDB.databases().catch(() => null) : null;
  if (listed && !listed.some((d) => d.name === OUTBOX_DB)) return taken;
  const kept = await withStore<PersistedClient | undefined>("readonly", (s) => s.get(KEY)).catch(() => undefined);
  if (!kept) return taken;
  const { queries, mutations } = kept.clientState;
  const mine = (variables: unknown) => timelineOfChange(variables) === timelineId;
  // Changes restored into this page's outbox were taken above; the others are only on the device.
  if (!restoring) taken.push(...mutations.filter((m) => mine(m.state.variables)).map((m) => m.state.variables));
  const clientState = {
    queries: queries.filter((q) => timelineOfKey(q.queryKey) !== timelineId),
    mutations: mutations.filter((m) => !mine(m.state.variables)),
  };
  await withStore("readwrite", (s) => s.put({ ...kept, clientState }, KEY)).catch(() => undefined);
  return taken;
}
