import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { DocFields } from "../../db/domain/rich-text";
import { openDoc, setupSharedScene, storedEvent, waitUntil } from "./doc-helpers";
import { call } from "./helpers";

// A comment's anchor is a pair of Yjs relative positions in the scene's shared `content`: stored as the client
// made them, they still find the commented words after other writers edit around them.

const firstText = (doc: Y.Doc) => (doc.getXmlFragment(DocFields.content).get(0) as Y.XmlElement).get(0) as Y.XmlText;
const encode = (pos: Y.RelativePosition) => btoa(String.fromCharCode(...Y.encodeRelativePosition(pos)));
const decode = (text: string) => Y.decodeRelativePosition(Uint8Array.from(atob(text), (c) => c.charCodeAt(0)));

describe("comment anchors", () => {
  it("survive concurrent edits by real Yjs clients and a fresh load of the doc", async () => {
    const { owner, timeline, event, collab } = await setupSharedScene("The storm breaks over the harbour.");
    const a = await openDoc(timeline.id, event.id, owner.token);
    const b = await openDoc(timeline.id, event.id, collab.token);
    const text = firstText(a.doc);
    const at = text.toString().indexOf("breaks");
    const anchor = {
      from: encode(Y.createRelativePositionFromTypeIndex(text, at)),
      to: encode(Y.createRelativePositionFromTypeIndex(text, at + "breaks".length)),
      quote: "breaks",
    };
    const posted = await call("POST", `/api/events/${event.id}/comments`, { token: owner.token, body: { body: "Too soft", anchor } });
    expect(posted.status).toBe(201);

    // Both write at once: one before the words, one after them.
    b.type("Suddenly, ", 0, 0);
    a.type(" Again.", 0, -1);
    const expected = "Suddenly, The storm breaks over the harbour. Again.";
    await waitUntil(() => firstText(a.doc).toString() === expected && firstText(b.doc).toString() === expected, "both merged");
    await waitUntil(async () => (await storedEvent(event.id)).content.includes("Suddenly, The storm breaks"), "the save", 8000);
    a.close();
    b.close();

    // A new client loads the doc and finds the words the comment was made on.
    const c = await openDoc(timeline.id, event.id, collab.token);
    await waitUntil(() => firstText(c.doc)?.toString() === expected, "the doc loaded");
    const [comment] = (await call("GET", `/api/events/${event.id}/comments`, { token: collab.token })).json;
    const from = Y.createAbsolutePositionFromRelativePosition(decode(comment.anchor.from), c.doc);
    const to = Y.createAbsolutePositionFromRelativePosition(decode(comment.anchor.to), c.doc);
    expect(from?.index).toBe(at + "Suddenly, ".length);
    expect(firstText(c.doc).toString().slice(from?.index, to?.index)).toBe(comment.anchor.quote);
    c.close();
  });
});
