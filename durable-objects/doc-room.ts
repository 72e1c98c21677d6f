// The shared doc's ties to its timeline's room: registered while writers are here (the room tells it every access
// that ends), and the room told when a scene's text was saved ('X edited', cards refetch).
import { getServerByName } from "partyserver";
import type { Author } from "./doc-storage";
import { type ChangeBody, MAX_CHANGE_TEXT } from "./protocol";
import type { TimelineRoom } from "./timeline-room";

export class RoomLink {
  /** This doc's registration with the timeline's room while writers are here (see `register`). */
  private registration: { token: string; done: Promise<void> } | null = null;

  constructor(
    private readonly rooms: DurableObjectNamespace<TimelineRoom>,
    private readonly waitUntil: (work: Promise<unknown>) => void,
    /** The doc's event and timeline, known once it loaded. */
    private readonly ids: () => { eventId: number; timelineId: number },
  ) {}

  private room() {
    return getServerByName(this.rooms, String(this.ids().timelineId));
  }

  get registered() {
    return this.registration !== null;
  }

  /** The first writer in: the room records this doc (one registration while writers stay, awaited by each). */
  register() {
    if (!this.registration) {
      const token = crypto.randomUUID();
      const done = (async () => {
        const room = await this.room();
        await room.docOpened(this.ids().eventId, token);
      })().catch((error) => console.error("[doc] room registration failed:", String(error)));
      this.registration = { token, done };
    }
    return this.registration.done;
  }

  /** The last writer left: the room forgets this doc (only this registration, never a newer one). */
  unregister() {
    const registration = this.registration;
    if (!registration) return;
    this.registration = null;
    this.waitUntil(
      (async () => {
        await registration.done;
        const room = await this.room();
        await room.docClosed(this.ids().eventId, registration.token);
      })().catch((error) => console.error("[doc] room registration failed:", String(error))),
    );
  }

  /** Writers' typing: the room shows it on everyone's cards. */
  tellTyping(by: Author, changes: ChangeBody[]) {
    this.waitUntil(
      (async () => {
        const room = await this.room();
        await room.relayTyping(this.ids().eventId, { userId: by.id, userName: by.name }, changes);
      })().catch((error) => console.error("[doc] room typing relay failed:", String(error))),
    );
  }

  /** A saved edit: everyone in the room hears it. */
  tellEdited(author: Author, subject: string) {
    this.waitUntil(
      (async () => {
        const room = await this.room();
        await room.notifySync({ action: "edited", by: { userId: author.id, userName: author.name }, subject });
      })().catch((error) => console.error("[doc] room notify failed:", String(error))),
    );
  }
}

/** How often, at most, writers' typing reaches the room while they type. */
export const TYPING_RELAY_MS = 300;

/**
 * The doc's text sent to the room as writers type: at most every TYPING_RELAY_MS while they type, and once more
 * when they stop, only the parts that changed since the last send, by the writer who typed last.
 */
export class TypingRelay {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private by: Author | null = null;

  constructor(
    /** The doc's text now (content undefined when it does not convert: nothing is sent for it). */
    private readonly text: () => { title: string; content: string | undefined },
    private sent: { title: string; content: string },
    private readonly send: (by: Author, changes: ChangeBody[]) => void,
  ) {}

  typed(by: Author) {
    this.by = by;
    this.timer ??= setTimeout(() => this.flush(), TYPING_RELAY_MS);
  }

  private flush() {
    this.timer = null;
    const by = this.by;
    if (!by) return;
    const now = this.text();
    const changes: ChangeBody[] = [];
    for (const type of ["title", "content"] as const) {
      const value = now[type];
      if (value === undefined || value === this.sent[type]) continue;
      this.sent[type] = value;
      if (value.length <= MAX_CHANGE_TEXT) changes.push({ type, value });
    }
    if (changes.length > 0) this.send(by, changes);
  }

  stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
