import { useCallback, useEffect, useRef, useState } from "react";
import type { StreamDone } from "~/features/assistant/ai-stream-fetch";

/**
 * Streaming AI, browser side (docs/api.md): POSTs with `Accept: text/event-stream` and reads the
 * Server-Sent Events with fetch + ReadableStream (EventSource cannot POST). Checks before the model
 * starts (limit, access, configuration) come back as ordinary JSON errors and throw ApiError. The reading
 * itself (features/assistant/ai-stream-fetch.ts) loads with the first request.
 */

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
  /** Under a stopped answer: whether it counted as a use (the words load with the stream reader). */
  const [stoppedNote, setStoppedNote] = useState("");
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
      let reader: typeof import("~/features/assistant/ai-stream-fetch") | null = null;
      let arrived = "";
      const onText = (t: string) => {
        arrived = t;
        setText(t);
      };
      try {
        reader = await import("~/features/assistant/ai-stream-fetch");
        return await reader.streamAi<R>(path, body, { onText, signal: stop.signal, query, streamId: id });
      } catch (error) {
        if (isAbort(error) || stop.signal.aborted) {
          setStopped(true);
          setStoppedNote(reader ? reader.stoppedNote(Boolean(arrived.trim())) : "");
        } else errorRef.current(error);
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
  return { text, setText, streaming, stopped, stoppedNote, run, stop };
}
