// The shared doc's Yjs state in its Durable Object's storage, in slices, beside the D1 version it matches.
import * as Y from "yjs";

export type Author = { id: number; name: string; email: string };
/** Beside the sliced Yjs state: D1's version it matches, and whether it holds text D1 has not got. */
type StoredMeta = { slices: number; version: number; unsavedBy?: Author | null };

/** The doc's Yjs state is stored in slices (a Durable Object value is limited in size). */
const STATE_SLICE = 256 * 1024;

export async function loadDocState(
  storage: DurableObjectStorage,
): Promise<{ state: Uint8Array; version: number; unsavedBy: Author | null } | null> {
  const meta = await storage.get<StoredMeta>("doc-meta");
  if (!meta) return null;
  const keys = Array.from({ length: meta.slices }, (_, i) => `doc-state-${i}`);
  const slices = await storage.get<Uint8Array>(keys);
  const parts = keys.map((k) => slices.get(k));
  if (parts.some((p) => !p)) return null;
  const state = new Uint8Array(parts.reduce((n, p) => n + p!.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    state.set(p!, at);
    at += p!.byteLength;
  }
  return { state, version: meta.version, unsavedBy: meta.unsavedBy ?? null };
}

/** `unsavedBy`: the doc holds text D1 does not have yet (D1 is at `version`), typed last by this writer. */
export async function storeDocState(storage: DurableObjectStorage, doc: Y.Doc, version: number, unsavedBy: Author | null) {
  const state = Y.encodeStateAsUpdate(doc);
  const entries: Record<string, unknown> = {};
  let slices = 0;
  for (let at = 0; at < state.byteLength || slices === 0; at += STATE_SLICE)
    entries[`doc-state-${slices++}`] = state.slice(at, at + STATE_SLICE);
  entries["doc-meta"] = { slices, version, unsavedBy } satisfies StoredMeta;
  await storage.put(entries);
}
