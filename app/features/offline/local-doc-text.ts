import { IndexeddbPersistence } from "y-indexeddb";
import * as Y from "yjs";
import { DocFields, yDocToMarkdown } from "../../../db/domain/rich-text";
import { localDocName } from "~/lib/offline-docs";

/** A scene's copy in this browser as text (its title, then its content as Markdown), read before it is deleted. */
export async function localDocText(eventId: number): Promise<string> {
  const doc = new Y.Doc();
  const idb = new IndexeddbPersistence(localDocName(eventId), doc);
  try {
    await idb.whenSynced;
    const title = doc.getText(DocFields.title).toString();
    const content = yDocToMarkdown(doc);
    return title ? `${title}\n\n${content}` : content;
  } finally {
    await idb.destroy();
    doc.destroy();
  }
}
