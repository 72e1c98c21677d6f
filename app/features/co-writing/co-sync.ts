import { IndexeddbPersistence } from "y-indexeddb";
import YProvider from "y-partyserver/provider";
import * as Y from "yjs";
import { DocFields, MetaKeys, type SavedMeta } from "../../../db/domain/rich-text";
import { localDocName, markPending } from "~/lib/offline-docs";

// Edits typed offline in an editor that was then closed by a reload: sent to the event's shared doc
// in the background when the timeline opens online, without opening the editor. Loaded only when needed.

const WAIT_MS = 10_000;

/** Merges this browser's copy of the event's doc into the server's; true when the server has all of it. */
export async function syncOfflineCopy(timelineId: number, eventId: number, shareCode: string | null): Promise<boolean> {
  const local = new Y.Doc();
  const idb = new IndexeddbPersistence(localDocName(eventId), local);
  const doc = new Y.Doc();
  let provider: YProvider | null = null;
  try {
    await idb.whenSynced;
    if (local.store.clients.size === 0) {
      markPending(eventId, false);
      return true;
    }
    provider = new YProvider(window.location.host, "doc", doc, {
      prefix: `/ws/${timelineId}/events/${eventId}/doc`,
      protocol: window.location.protocol === "https:" ? "wss" : "ws",
      params: shareCode ? { share: shareCode } : undefined,
    });
    const p = provider;
    const synced = await within(new Promise<boolean>((resolve) => p.on("synced", (s: boolean) => s && resolve(true))));
    if (!synced) return false;
    if (doc.getMap(DocFields.meta).get("epoch") !== local.getMap(DocFields.meta).get("epoch")) {
      // The server's doc was rebuilt since: this copy cannot merge without duplicating text.
      await idb.clearData();
      markPending(eventId, false);
      return true;
    }
    // What the server lacks: writers' edits made here (its own are always in it).
    const server = Y.decodeStateVector(Y.encodeStateVector(doc));
    const need = [...Y.decodeStateVector(Y.encodeStateVector(local))].filter(([client, clock]) => (server.get(client) ?? 0) < clock);
    const covered = (sv: Map<number, number>) => need.every(([client, clock]) => (sv.get(client) ?? 0) >= clock);
    if (need.length > 0) {
      // The server says what D1 holds in the doc's `meta.saved`.
      const meta = doc.getMap<unknown>(DocFields.meta);
      const persisted = new Promise<boolean>((resolve) =>
        meta.observe((event) => {
          const saved = meta.get(MetaKeys.saved) as SavedMeta | undefined;
          if (!event.keysChanged.has(MetaKeys.saved) || typeof saved?.sv !== "string") return;
          try {
            if (covered(Y.decodeStateVector(Uint8Array.from(atob(saved.sv), (c) => c.charCodeAt(0))))) resolve(true);
          } catch {
            // A malformed vector changes nothing.
          }
        }),
      );
      Y.applyUpdate(doc, Y.encodeStateAsUpdate(local));
      if (!(await within(persisted))) return false;
    }
    markPending(eventId, false);
    return true;
  } finally {
    provider?.destroy();
    void idb.destroy();
    doc.destroy();
    local.destroy();
  }
}

const within = (promise: Promise<boolean>) =>
  Promise.race([promise, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), WAIT_MS))]);
