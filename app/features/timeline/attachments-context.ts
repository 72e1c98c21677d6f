import { createContext } from "react";
import type { ApiClient } from "~/lib/client";
import type { AttachmentView } from "../../../worker/services/attachment-store";
import type { EventView } from "../../../worker/services/events";

/** What the timeline screen gives its cards: the share code, the session's client and a way to update an event. */
export type AttachmentsApi = {
  shareCode?: string | null;
  /** The timeline session's client (the room connection already set). */
  client: ApiClient;
  onChange: (eventId: number, update: (list: AttachmentView[]) => AttachmentView[]) => void;
  /** The screen's own list of the timeline's events, as it is now (the edit form's 'After' picks from it). */
  readonly scenes?: EventView[];
};

export const AttachmentsContext = createContext<AttachmentsApi | null>(null);

export const query = (shareCode?: string | null) => (shareCode ? `?${new URLSearchParams({ share: shareCode })}` : "");

/** The download (and thumbnail) URL of an attachment. */
export const attachmentUrl = (id: number, shareCode?: string | null) => `/api/attachments/${id}${query(shareCode)}`;
