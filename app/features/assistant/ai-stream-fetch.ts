import { type AiUsage, ApiError, type ErrorBody } from "~/lib/client";

// The network half of features/assistant/ai-stream.ts, loaded with the first AI request (not in the first page load).

/** The stream's last event: the whole answer, and the writer's uses after it. */
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

/** Under a stopped answer: a use counts once text of the answer has arrived, so only an empty stop is free. */
export const stoppedNote = (textArrived: boolean) =>
  textArrived ? "Stopped. What arrived is kept and counts as one use." : "Stopped. This one did not count toward your free uses.";
