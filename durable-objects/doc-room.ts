// The shared doc's ties to its timeline's room: registered while writers are here (the room tells it every access
// that ends), and the room told when a scene's text was saved ('X edited', cards refetch).
import { getServerByName } from "partyserver";
import type { Author } from "./doc-storage";
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
