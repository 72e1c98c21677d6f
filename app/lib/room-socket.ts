// The timeline room's WebSocket, reconnecting with backoff (issue 11: the few lines of partysocket's reconnecting
// socket this page used, so the first page load does not carry the whole library; the co-writing editor, loaded
// on use, still connects through y-partyserver).

export type RoomSocketHandlers = {
  open: () => void;
  message: (data: unknown) => void;
  /** `code` is the server's close code (4401/4403/4404… end the room for good), `reason` its close reason. */
  close: (code: number, reason: string) => void;
  error: () => void;
};

/** Same timing as partysocket's defaults with our bounds: the first try after `min`, ×1.3 per failure, at most `max`. */
export const RECONNECT = { growFactor: 1.3, connectionTimeoutMs: 4000, minUptimeMs: 5000 };

/** A connection id the server accepts (`[\w-]{1,64}`); crypto.randomUUID is missing outside secure contexts. */
function connectionId() {
  if (typeof crypto !== "undefined" && "randomUUID" in crypto) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

export class RoomSocket {
  /** Sent as `_pk` and with this page's writes (the server leaves our own changes out of our resyncs). */
  readonly id = connectionId();
  private ws: WebSocket | null = null;
  private stopped = false;
  private retries = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private uptime: ReturnType<typeof setTimeout> | undefined;
  private readonly url: string;

  constructor(
    path: string,
    query: Record<string, string>,
    private readonly on: RoomSocketHandlers,
    private readonly delays: { min: number; max: number },
  ) {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    this.url = `${scheme}://${window.location.host}/${path}?${new URLSearchParams({ _pk: this.id, ...query })}`;
    this.schedule();
  }

  get isOpen() {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Sends when open; the room's messages are all either state the server resends or moments that may pass. */
  send(data: string) {
    if (this.ws && this.isOpen) this.ws.send(data);
  }

  /** For good: no reconnect. */
  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.uptime);
    const ws = this.ws;
    this.ws = null;
    if (ws && ws.readyState < WebSocket.CLOSING) ws.close(1000);
  }

  private schedule() {
    this.retries++;
    const wait = Math.min(this.delays.min * RECONNECT.growFactor ** (this.retries - 1), this.delays.max);
    this.timer = setTimeout(() => this.connect(), wait);
  }

  private connect() {
    if (this.stopped) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    // A connection that never opens is given up and tried again.
    this.timer = setTimeout(() => ws.close(), RECONNECT.connectionTimeoutMs);
    ws.onopen = () => {
      clearTimeout(this.timer);
      // Only a connection that stayed up resets the backoff.
      this.uptime = setTimeout(() => {
        this.retries = 0;
      }, RECONNECT.minUptimeMs);
      this.on.open();
    };
    ws.onmessage = (event) => this.on.message(event.data);
    ws.onerror = () => {
      if (this.ws === ws) this.on.error();
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      clearTimeout(this.timer);
      clearTimeout(this.uptime);
      this.ws = null;
      this.on.close(event.code, event.reason);
      if (!this.stopped) this.schedule();
    };
  }
}
