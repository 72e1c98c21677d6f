import { type ApiClient, errorMessage, shareParam, unwrap } from "~/lib/client";
import { fetchWithUploadProgress } from "~/lib/upload-fetch";

// The upload itself, loaded when a writer first attaches or drops a file on a card.

/**
 * Sends one file through the session's client (the room connection already set) with upload progress: the
 * client's per-call `fetch` is an XHR one, as fetch has none. Resolves with the new attachment; rejects with the
 * server's message, or 'Failed to upload file'.
 */
export async function send(
  client: ApiClient,
  eventId: number,
  shareCode: string | null | undefined,
  file: File,
  onProgress: (percent: number) => void,
) {
  const form = new FormData();
  form.append("file", file, file.name);
  try {
    return await unwrap(
      client.api.events[":id"].attachments.$post(
        { param: { id: String(eventId) }, query: shareParam(shareCode) },
        { init: { body: form }, fetch: fetchWithUploadProgress((sent) => onProgress(Math.round(sent * 100))) },
      ),
    );
  } catch (error) {
    throw new Error(errorMessage(error, "Failed to upload file"));
  }
}
