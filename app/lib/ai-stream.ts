import { useCallback, useEffect, useRef, useState } from "react";
import type { AiUsage } from "~/lib/ai";
import { ApiError, type ErrorBody } from "~/lib/client";

/**
 * DESIGN.md §10 Streaming AI, browser side: POSTs with `Accept: text/event-stream` and reads the
 * Server-Sent Events with fetch + ReadableStream (EventSource cannot POST). Checks before the model
 * starts (limit, access, configuration) come back as ordinary JSON errors and throw ApiError.
 */

export type StreamDone<R = string> = { done: true; result: R; usage?: AiUsage; [key: string]: unknown };

/** The model stopped mid-answer (or failed): `partial` is what arrived before. */
export class AiStreamError extends Error {
  constructor(
    message: string,
    readonly partial: string,
  ) {
    super(message);
    this.name = "AiStreamError";
  }
}

export async function streamAi<R = string>(
  path: string,
  body: unknown,
  {
    onText,
    signal,
    query,
    streamId,
  }: { onText: (text: string) => void; signal?: AbortSignal; query?: Record<string, string | undefined>; streamId?: string },
): Promise<StreamDone<R>> {
  const params = Object.entries(query ?? {}).filter((e): e is [string, string] => typeof e[1] === "string");
  const search = params.length ? `?${new URLSearchParams(params)}` : "";
  const res = await fetch(`/api${path}${search}`, {
    method: "POST",
    headers: { Accept: "text/event-stream", "Content-Type": "application/json", ...(streamId ? { "X-AI-Stream-Id": streamId } : {}) },
    body: JSON.stringify(body),
    credentials: "same-origin",
    signal,
  });
  if (!res.ok || !res.headers.get("Content-Type")?.startsWith("text/event-stream")) {
    const text = await res.text();
    let json: ErrorBody | null = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {}
    if (!res.ok) throw new ApiError(res.status, `API request failed: ${res.status} ${res.statusText} - ${json?.error ?? text}`, json);
    return json as unknown as StreamDone<R>;
  }
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const data = frame
        .split("\n")
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).trimStart())
        .join("\n");
      if (!data) continue;
      const event = JSON.parse(data);
      if (typeof event.delta === "string") {
        text += event.delta;
        onText(text);
      } else if (event.done) {
        return event as StreamDone<R>;
      } else if (event.error) {
        throw new AiStreamError(String(event.error), text);
      }
    }
  }
  throw new AiStreamError("The AI stopped before finishing. What arrived is kept.", text);
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === "AbortError";

/**
 * One streamed AI answer on a screen: the text so far, whether it is still coming, and Stop
 * (AbortController: the server notices and gives a free use back). `run` resolves to the `done`
 * event, or null when stopped or failed (`onError` decides what to show; what arrived stays in `text`).
 */
export function useAiStream<R = string>(onError: (error: unknown) => void) {
  const [text, setText] = useState("");
  const [streaming, setStreaming] = useState(false);
  const [stopped, setStopped] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const streamId = useRef<string | null>(null);
  const errorRef = useRef(onError);
  errorRef.current = onError;
  useEffect(() => () => controller.current?.abort(), []);

  const run = useCallback(
    async (path: string, body: unknown, query?: Record<string, string | undefined>): Promise<StreamDone<R> | null> => {
      controller.current?.abort();
      const stop = new AbortController();
      controller.current = stop;
      const id = crypto.randomUUID();
      streamId.current = id;
      setText("");
      setStopped(false);
      setStreaming(true);
      try {
        return await streamAi<R>(path, body, { onText: setText, signal: stop.signal, query, streamId: id });
      } catch (error) {
        if (isAbort(error) || stop.signal.aborted) setStopped(true);
        else errorRef.current(error);
        return null;
      } finally {
        if (controller.current === stop) controller.current = null;
        setStreaming(false);
      }
    },
    [],
  );

  const stop = useCallback(() => {
    const id = streamId.current;
    if (!controller.current || !id) return;
    controller.current.abort();
    // Also tell the server by name, in case a proxy keeps the aborted stream open.
    void fetch("/api/ai/stop", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ id }),
      credentials: "same-origin",
    }).catch(() => {});
  }, []);
  return { text, setText, streaming, stopped, run, stop };
}
