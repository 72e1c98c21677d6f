// Loaded when 'Undo' is pressed on a delete's toast, never with the page.
import { client, errorMessage, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";

/** Brings a scene or timeline back from Trash; `done` reloads what the screen shows. */
export async function undoDelete(kind: "event" | "timeline", id: number, done: () => void) {
  try {
    await unwrap(client.api.trash[":kind"][":id"].restore.$post({ param: { kind, id: String(id) } }));
    showToast({ title: "Restored", description: kind === "event" ? "The event is back." : "The timeline is back." });
    done();
  } catch (error) {
    errorToast(errorMessage(error, "Failed to restore"));
  }
}
