import * as Y from "yjs";

/** How long the doc gathers its updates before they go out to every writer as one (ms). */
export const BROADCAST_MS = 40;

/**
 * The doc's updates to its writers, gathered for BROADCAST_MS and sent as one merged Yjs update. One by one, 100
 * writers typing 5 characters a second are 500 updates a second, each sent to all 100 sockets: 50,000 frames a
 * second out of one object and 500 a second into every writer's editor, which neither the object nor a laptop keeps
 * up with (the co-typing bench fell minutes behind). Gathered, every writer gets at most 25 frames a second whatever
 * the number of writers, each keystroke at most BROADCAST_MS later. Yjs updates merge and apply in any order, so
 * a sync answer sent meanwhile (which already holds the gathered updates) stays correct.
 */
export class GatheredBroadcast {
  private pending: Uint8Array[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    /** y-partyserver's broadcast of one update to every connection. */
    private readonly send: (update: Uint8Array) => void,
    private readonly ms = BROADCAST_MS,
  ) {}

  push(update: Uint8Array) {
    this.pending.push(update);
    this.timer ??= setTimeout(() => this.flush(), this.ms);
  }

  /** Sends what was gathered now (a pending timer is dropped). */
  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const updates = this.pending;
    if (updates.length === 0) return;
    this.pending = [];
    this.send(updates.length === 1 ? updates[0] : Y.mergeUpdates(updates));
  }
}

type UpdateListener = (update: Uint8Array, ...rest: unknown[]) => void;

/**
 * Runs `start` (y-partyserver's onStart) with the doc's "update" listener that `isBroadcast()` names at its
 * registration (the one registered right after onLoad: the broadcast to every connection) replaced by a gathered
 * one. Returns the gatherer (null when no such listener was registered, e.g. an event that no longer exists).
 */
export async function gatherBroadcasts(doc: Y.Doc, isBroadcast: () => boolean, start: () => Promise<void>) {
  let gathered: GatheredBroadcast | null = null;
  const on = doc.on;
  const patched = (name: string, listener: UpdateListener) => {
    if (name === "update" && !gathered && isBroadcast()) {
      const broadcast = new GatheredBroadcast((update) => listener(update, null, doc));
      gathered = broadcast;
      return on.call(doc, "update", (update: Uint8Array) => broadcast.push(update));
    }
    return on.call(doc, name as "update", listener);
  };
  doc.on = patched as typeof doc.on;
  try {
    await start();
  } finally {
    // Back to the prototype's `on`.
    delete (doc as { on?: unknown }).on;
  }
  return gathered as GatheredBroadcast | null;
}

/** How long the doc gathers writers' caret (awareness) changes before it sends them on as one frame (ms). */
export const CARETS_MS = 50;

/**
 * Writers' carets to every writer, gathered like the doc's updates. An editor sends its caret with every keystroke
 * (and its view moves with everyone's typing), so 100 writers at 5 keys a second were another 500 frames a second
 * into every socket. Gathered, every writer gets at most one caret frame per CARETS_MS, holding the latest state of
 * each client that changed (a removed one as removed): the y-protocols awareness update encoded from the doc's own
 * awareness, which already applied each change as it came.
 */
export class GatheredCarets {
  private changed = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    /** Sends one awareness update (the encoded states of these clients) to every connection. */
    private readonly send: (clientIds: number[]) => void,
    private readonly ms = CARETS_MS,
  ) {}

  push(clientIds: Iterable<number>) {
    for (const id of clientIds) this.changed.add(id);
    if (this.changed.size > 0) this.timer ??= setTimeout(() => this.flush(), this.ms);
  }

  /** Sends what was gathered now (a pending timer is dropped). */
  flush() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.changed.size === 0) return;
    const ids = [...this.changed];
    this.changed = new Set();
    this.send(ids);
  }
}
