import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../worker/index";
import { ORIGIN } from "./helpers";

// WebSocket helpers for the room tests: real upgrades through the Worker into the TimelineRoom.

export type Msg = { type: string; [k: string]: any };

export async function upgrade(path: string, token?: string, extraHeaders: Record<string, string> = {}) {
  const headers = new Headers({ Upgrade: "websocket", ...extraHeaders });
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const ctx = createExecutionContext();
  const request = new Request(ORIGIN + path, { headers }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** Opens a room socket and records every server message. */
export async function connect(timelineId: number, token: string, share?: string, connectionId?: string) {
  const query = new URLSearchParams();
  if (share) query.set("share", share);
  // partysocket names its connection with `_pk`; the page sends that id with its writes.
  if (connectionId) query.set("_pk", connectionId);
  const res = await upgrade(`/ws/${timelineId}${query.size ? `?${query}` : ""}`, token);
  expect(res.status).toBe(101);
  return recordSocket(res.webSocket!);
}

/** Accepts an upgraded socket and records every server message and the close code. */
export function recordSocket(ws: WebSocket) {
  const messages: Msg[] = [];
  const closed: { code?: number } = {};
  ws.addEventListener("message", (e) => {
    messages.push(JSON.parse(String(e.data)));
  });
  ws.addEventListener("close", (e) => {
    closed.code = e.code;
  });
  ws.accept();
  const waitFor = async (pred: (m: Msg) => boolean, label = "message", timeout = 3000) => {
    const start = Date.now();
    while (Date.now() - start < timeout) {
      const hit = messages.find(pred);
      if (hit) return hit;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`timed out waiting for ${label}; got ${JSON.stringify(messages)}`);
  };
  const send = (m: unknown) => ws.send(typeof m === "string" ? m : JSON.stringify(m));
  return { ws, messages, closed, waitFor, send, clear: () => messages.splice(0) };
}

export const lastPresence = (messages: Msg[]) => [...messages].reverse().find((m) => m.type === "presence")?.presence.users ?? [];
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until the server closed the socket; returns its close code. */
export async function closedWith(room: { closed: { code?: number } }, timeout = 3000) {
  const start = Date.now();
  while (room.closed.code === undefined && Date.now() - start < timeout) await sleep(10);
  return room.closed.code;
}
