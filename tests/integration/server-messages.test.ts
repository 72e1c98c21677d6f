import { describe, expect, it } from "vitest";
import { MAX_CHANGE_TEXT, ServerMessageSchema } from "../../durable-objects/protocol";
import { serverMessageOf } from "../../durable-objects/server-messages";
import { parseServerMessage } from "../../app/features/live-room/room-connection";
import { call, createEvent, premiumOwnerWithTimeline, registerUser, shareByEmail } from "./helpers";
import { connect, sleep } from "./room-helpers";

// The browser checks the room's messages without zod (server-messages.ts); the protocol's zod schema stays its
// definition. Both must give the same answer for every message: a valid one as the schema reads it (unknown fields
// left out), anything else ignored.

const zodAnswer = (json: unknown) => {
  const parsed = ServerMessageSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
};

const user = { userId: 7, userName: "Mara", accessMode: "collaborator", isOwner: false, editingEventId: null };
const VALID: unknown[] = [
  { type: "presence", presence: { users: [] } },
  {
    type: "presence",
    presence: { users: [user, { userId: 1, userName: "Olive", accessMode: "owner", isOwner: true, editingEventId: 12 }] },
  },
  { type: "change", eventId: 3, userId: 7, userName: "Mara", change: { type: "title", value: "The tide" } },
  { type: "change", eventId: 3, userId: 7, userName: "Mara", change: { type: "content", value: "x".repeat(MAX_CHANGE_TEXT) } },
  { type: "change", eventId: 3, userId: 7, userName: "Mara", change: { type: "position", value: 0 } },
  { type: "change", eventId: 3, userId: 7, userName: "Mara", change: { type: "position", value: 41 } },
  { type: "sync" },
  { type: "sync", scope: "map" },
  { type: "sync", scope: "comments", eventId: 9 },
  { type: "sync", eventId: 9 },
  {
    type: "notification",
    notification: { type: "added", title: "Added", message: 'Mara added "Vigil"', createdAt: "2031-10-13T09:00:00Z" },
  },
  { type: "notification", notification: { type: "join", title: "Joined", message: "Mara joined", createdAt: "now", userId: 7 } },
  { type: "error", error: "Viewers cannot edit" },
];

/** What a hostile or broken sender might put in any one place of a message. */
const ODD_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  "",
  "x",
  "owner",
  "map",
  "x".repeat(MAX_CHANGE_TEXT + 1),
  [],
  [1],
  {},
  { type: "error", error: "nested" },
];

/** Every path to a value inside `json` (objects and arrays), the top level excluded. */
function paths(json: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (typeof json !== "object" || json === null) return [];
  const keys: (string | number)[] = Array.isArray(json) ? json.map((_, i) => i) : Object.keys(json);
  return keys.flatMap((key) => [[...at, key], ...paths((json as Record<string | number, unknown>)[key], [...at, key])]);
}

/** A copy of `json` with the value at `path` replaced (or removed, for `undefined`). */
function changed(json: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(json) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = value;
  return copy;
}

describe("the room's messages, checked in the browser without zod", () => {
  it("reads every valid message as the protocol's schema does", () => {
    for (const message of VALID) {
      expect(zodAnswer(message), JSON.stringify(message)).not.toBeNull();
      expect(serverMessageOf(message), JSON.stringify(message)).toEqual(zodAnswer(message));
      expect(parseServerMessage(JSON.stringify(message))).toEqual(zodAnswer(message));
    }
  });

  it("keeps only the protocol's fields: anything else a message carries is left out", () => {
    const padded = {
      type: "presence",
      extra: "ignored",
      presence: { users: [{ ...user, password: "hunter2" }], more: 1 },
    };
    expect(serverMessageOf(padded)).toEqual({ type: "presence", presence: { users: [user] } });
    expect(serverMessageOf(padded)).toEqual(zodAnswer(padded));
    const polluted = JSON.parse('{"type":"error","error":"x","__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}');
    const read = serverMessageOf(polluted);
    expect(read).toEqual({ type: "error", error: "x" });
    expect(Object.keys(read ?? {})).toEqual(["type", "error"]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it("ignores what is not a message: not JSON, not an object, an unknown type", () => {
    for (const data of [
      "",
      "not json",
      "{",
      "null",
      "42",
      '"sync"',
      "[]",
      '[{"type":"sync"}]',
      '{"type":"reload"}',
      '{"type":"SYNC"}',
      "{}",
    ]) {
      expect(parseServerMessage(data), data).toBeNull();
    }
    for (const json of [undefined, null, 1, "sync", [], [{ type: "sync" }], { type: "sync", scope: null }, { type: "presence" }]) {
      expect(serverMessageOf(json)).toBeNull();
      expect(zodAnswer(json)).toBeNull();
    }
  });

  it("agrees with the schema when any one field is missing or holds anything else", () => {
    let ignored = 0;
    for (const message of VALID) {
      for (const path of paths(message)) {
        for (const value of [undefined, ...ODD_VALUES]) {
          const broken = changed(message, path, value);
          const label = `${JSON.stringify(message)} with ${path.join(".")} = ${JSON.stringify(value)?.slice(0, 40)}`;
          expect(serverMessageOf(broken), label).toEqual(zodAnswer(broken));
          if (zodAnswer(broken) === null) ignored++;
        }
      }
    }
    // The sweep did meet broken messages (most of its changes make one).
    expect(ignored).toBeGreaterThan(300);
  });

  it("accepts every message a real room sends: presence, live changes, syncs, notifications, errors", async () => {
    const { owner, timelineId } = await premiumOwnerWithTimeline();
    const collab = await registerUser({ name: "Cora Collab" });
    const viewer = await registerUser({ name: "Vera Viewer" });
    await shareByEmail(timelineId, owner.token, collab.email, "collaborator");
    await shareByEmail(timelineId, owner.token, viewer.email, "viewer");
    const event = await createEvent(owner.token, timelineId, { title: "The tide" });
    const watcher = await connect(timelineId, owner.token);
    await watcher.waitFor((m) => m.type === "presence", "presence");
    const writer = await connect(timelineId, collab.token);
    const reader = await connect(timelineId, viewer.token);
    await watcher.waitFor((m) => m.type === "notification", "join notification");
    writer.send({ type: "editing", eventId: event.id });
    writer.send({ type: "change", eventId: event.id, change: { type: "title", value: "The tide turns" } });
    await watcher.waitFor((m) => m.type === "change", "live change");
    reader.send({ type: "change", eventId: event.id, change: { type: "title", value: "Not mine" } });
    await reader.waitFor((m) => m.type === "error", "viewer's error");
    await call("PATCH", `/api/events/${event.id}`, { token: collab.token, body: { title: "Saved" } });
    await watcher.waitFor((m) => m.type === "sync", "sync");
    await sleep(50);
    const heard = [...watcher.messages, ...writer.messages, ...reader.messages];
    expect(new Set(heard.map((m) => m.type))).toEqual(new Set(["presence", "notification", "change", "sync", "error"]));
    for (const message of heard) {
      expect(zodAnswer(message), JSON.stringify(message)).not.toBeNull();
      expect(parseServerMessage(JSON.stringify(message)), JSON.stringify(message)).toEqual(zodAnswer(message));
    }
    for (const room of [watcher, writer, reader]) room.ws.close();
  });
});
