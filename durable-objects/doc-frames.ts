// The y-protocols frames the shared doc reads from a writer's socket, and the caret (awareness) frames it sends on.
import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { type Awareness, encodeAwarenessUpdate } from "y-protocols/awareness";
import * as Y from "yjs";

export type Frame = { kind: "sync-step-1" } | { kind: "update"; update: Uint8Array } | { kind: "awareness"; update: Uint8Array };

/** A y-protocols frame (sync step 1, sync step 2 or update, awareness), read whole. Throws when malformed. */
export function readFrame(bytes: Uint8Array): Frame {
  const decoder = decoding.createDecoder(bytes);
  const type = decoding.readVarUint(decoder);
  if (type === 1) return { kind: "awareness", update: decoding.readVarUint8Array(decoder) };
  if (type !== 0) throw new Error("Unknown message type");
  const step = decoding.readVarUint(decoder);
  if (step === 0) {
    Y.decodeStateVector(decoding.readVarUint8Array(decoder));
    return { kind: "sync-step-1" };
  }
  if (step === 1 || step === 2) return { kind: "update", update: decoding.readVarUint8Array(decoder) };
  throw new Error("Unknown sync message");
}

export type CaretEntry = { clientId: number; clock: number; state: string };

/** The entries of a y-protocols awareness update. Throws when malformed. */
export function readAwareness(update: Uint8Array): CaretEntry[] {
  const decoder = decoding.createDecoder(update);
  const count = decoding.readVarUint(decoder);
  const entries: CaretEntry[] = [];
  for (let i = 0; i < count; i++) {
    entries.push({ clientId: decoding.readVarUint(decoder), clock: decoding.readVarUint(decoder), state: decoding.readVarString(decoder) });
  }
  return entries;
}

/** A y-protocols awareness frame (type 1) of these entries. */
export function writeAwareness(entries: CaretEntry[]): Uint8Array {
  const update = encoding.createEncoder();
  encoding.writeVarUint(update, entries.length);
  for (const e of entries) {
    encoding.writeVarUint(update, e.clientId);
    encoding.writeVarUint(update, e.clock);
    encoding.writeVarString(update, e.state);
  }
  const out = encoding.createEncoder();
  encoding.writeVarUint(out, 1);
  encoding.writeVarUint8Array(out, encoding.toUint8Array(update));
  return encoding.toUint8Array(out);
}

/** A y-protocols awareness frame (type 1) of these clients' states as `awareness` holds them (a removed one as removed). */
export function awarenessFrame(awareness: Awareness, clientIds: number[]): Uint8Array {
  const out = encoding.createEncoder();
  encoding.writeVarUint(out, 1);
  encoding.writeVarUint8Array(out, encodeAwarenessUpdate(awareness, clientIds));
  return encoding.toUint8Array(out);
}
