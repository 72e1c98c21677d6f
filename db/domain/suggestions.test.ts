import type { JSONContent } from "@tiptap/core";
import {
  applySuggestion,
  applySuggestions,
  enableSuggestChanges,
  revertSuggestion,
  suggestChanges,
  transformToSuggestionTransaction,
} from "@handlewithcare/prosemirror-suggest-changes";
import { EditorState, TextSelection } from "@tiptap/pm/state";
import { describe, expect, it } from "vitest";
import { jsonToMarkdown, markdownToJson, richTextSchema } from "./rich-text";
import { describeSuggestion, listSuggestions, newSuggestionsForOwner, suggestionAuthor, suggestionId } from "./suggestions";

// Pending suggestions are not in the saved text: inserted text is left out, deleted text stays as it was.

const ins = (text: string, id = "s:7:1700000000000:ab:Mara") => ({ type: "text", text, marks: [{ type: "insertion", attrs: { id } }] });
const del = (text: string, id = "s:7:1700000000000:cd:Mara") => ({ type: "text", text, marks: [{ type: "deletion", attrs: { id } }] });
const t = (text: string, marks: string[] = []) =>
  marks.length ? { type: "text", text, marks: marks.map((type) => ({ type })) } : { type: "text", text };
const p = (...content: JSONContent[]) => ({ type: "paragraph", content });
const doc = (...content: JSONContent[]) => ({ type: "doc", content });

describe("saved Markdown with pending suggestions", () => {
  it("leaves insertions out and keeps deleted text as plain text", () => {
    const json = doc(p(t("The "), ins("quick "), t("brown "), del("lazy "), t("fox.")));
    expect(jsonToMarkdown(json)).toBe("The brown lazy fox.");
  });

  it("keeps the other marks of deleted text and drops a paragraph that was only suggested", () => {
    const json = doc(
      p(t("One "), { type: "text", text: "bold", marks: [{ type: "bold" }, { type: "deletion", attrs: { id: "x" } }] }),
      p(ins("A whole new paragraph.")),
      p(t("Two.")),
    );
    expect(jsonToMarkdown(json)).toBe("One **bold**\n\nTwo.");
  });

  it("reads documents without suggestions as before", () => {
    for (const md of ["Plain text.", "# Title\n\nSome **bold** and *italic*.\n\n- a\n- b", "> quote\n\n---\n\n1. one"]) {
      expect(jsonToMarkdown(markdownToJson(md))).toBe(md);
    }
    const json = doc(p(t("A "), t("b", ["bold"]), t(" c.")));
    expect(jsonToMarkdown(json)).toBe("A **b** c.");
  });

  it("never fails on malformed suggestion marks", () => {
    const json = doc(
      p(t("Kept "), { type: "text", text: "odd", marks: [{ type: "deletion" }] } as JSONContent, t(" end.")),
      p({ type: "text", text: "gone", marks: [{ type: "insertion", attrs: { id: { nested: [1] } } }] } as JSONContent),
    );
    expect(jsonToMarkdown(json)).toBe("Kept odd end.");
    expect(listSuggestions(json).map((s) => s.name)).toEqual(["Someone", "Someone"]);
  });
});

describe("suggestion ids", () => {
  it("name the new suggestions someone else made on the owner's scene", () => {
    const before = doc(p(t("The "), ins("old ", "s:7:1:a:Mara"), t("bell.")));
    const after = doc(
      p(
        t("The "),
        ins("old ", "s:7:1:a:Mara"),
        ins("grey ", "s:7:2:b:Mara"),
        t("bell "),
        ins("x", "s:1:3:c:Olive"),
        del("rang", "s:7:2:b:Mara"),
      ),
    );
    expect(newSuggestionsForOwner(before, after, 1).map((s) => [s.id, s.name, s.text])).toEqual([["s:7:2:b:Mara", "Mara", "grey "]]);
    expect(newSuggestionsForOwner(after, after, 1)).toEqual([]);
  });

  it("say who suggested and when", () => {
    const id = suggestionId(12, "Ana: the editor", 1_700_000_000_000);
    expect(suggestionAuthor(id)).toEqual({ userId: 12, name: "Ana: the editor", at: 1_700_000_000_000 });
    expect(suggestionAuthor(42)).toEqual({ userId: null, name: "Someone", at: null });
  });
});

describe("suggesting, accepting and rejecting on a doc", () => {
  const start = () => {
    const schema = richTextSchema();
    const state = EditorState.create({ schema, doc: schema.nodeFromJSON(markdownToJson("The brown fox.")), plugins: [suggestChanges()] });
    let s = state;
    enableSuggestChanges(s, (tr) => {
      s = s.apply(tr);
    });
    return s;
  };
  const suggest = (state: EditorState, edit: (s: EditorState) => ReturnType<EditorState["tr"]["insertText"]>, id: string) =>
    state.apply(transformToSuggestionTransaction(edit(state), state, () => id));

  it("tracks an insertion and a deletion, then accepts one and rejects the other", () => {
    let state = start();
    // "The |brown fox." → insert "quick "; then delete "fox" (positions: paragraph starts at 1).
    state = suggest(state, (s) => s.tr.insertText("quick ", 5), "s:1:1:a:Mara");
    const foxAt = state.doc.textContent.indexOf("fox") + 1;
    state = suggest(state, (s) => s.tr.setSelection(TextSelection.create(s.doc, foxAt, foxAt + 3)).deleteSelection(), "s:1:2:b:Mara");
    const json = state.doc.toJSON() as JSONContent;
    expect(state.doc.textContent).toBe("The quick brown fox.");
    expect(jsonToMarkdown(json)).toBe("The brown fox.");
    expect(listSuggestions(json).map(({ kind, text, name }) => ({ kind, text, name }))).toEqual([
      { kind: "insertion", text: "quick ", name: "Mara" },
      { kind: "deletion", text: "fox", name: "Mara" },
    ]);

    const dispatch = (tr: ReturnType<EditorState["tr"]["insertText"]>) => {
      state = state.apply(tr);
    };
    expect(applySuggestion("s:1:1:a:Mara")(state, dispatch)).toBe(true);
    expect(revertSuggestion("s:1:2:b:Mara")(state, dispatch)).toBe(true);
    expect(listSuggestions(state.doc.toJSON())).toEqual([]);
    expect(jsonToMarkdown(state.doc.toJSON())).toBe("The quick brown fox.");
  });

  it("accepts all at once", () => {
    let state = start();
    state = suggest(state, (s) => s.tr.insertText("quick ", 5), "s:1:1:a:Mara");
    state = suggest(state, (s) => s.tr.delete(1, 5), "s:1:2:b:Mara");
    applySuggestions(state, (tr) => {
      state = state.apply(tr);
    });
    expect(jsonToMarkdown(state.doc.toJSON())).toBe("quick brown fox.");
  });

  it("tracks bold made in Suggesting mode as one format change: rejected it is gone, accepted the words are bold", () => {
    const bold = (state: EditorState) => state.tr.addMark(5, 10, state.schema.marks.bold.create());
    let state = suggest(start(), bold, "s:1:1:a:Mara");
    const [change, ...rest] = listSuggestions(state.doc.toJSON());
    expect(rest).toEqual([]);
    expect(change).toMatchObject({ kind: "format", text: "brown", added: ["bold"], removed: [] });
    expect(describeSuggestion(change)).toBe("Make “brown” bold");
    // Until accepted the saved text is as it was.
    expect(jsonToMarkdown(state.doc.toJSON())).toBe("The brown fox.");
    const dispatch = (tr: ReturnType<EditorState["tr"]["insertText"]>) => {
      state = state.apply(tr);
    };
    const suggested = state;
    expect(revertSuggestion("s:1:1:a:Mara")(state, dispatch)).toBe(true);
    expect(jsonToMarkdown(state.doc.toJSON())).toBe("The brown fox.");
    state = suggested;
    expect(applySuggestion("s:1:1:a:Mara")(state, dispatch)).toBe(true);
    expect(listSuggestions(state.doc.toJSON())).toEqual([]);
    expect(jsonToMarkdown(state.doc.toJSON())).toBe("The **brown** fox.");
  });

  it("names a replacement and a removed format in a few words", () => {
    let state = suggest(start(), (s) => s.tr.insertText("red", 5, 10), "s:1:1:a:Mara");
    const [replaced] = listSuggestions(state.doc.toJSON());
    expect(describeSuggestion(replaced)).toBe("Replace “brown” with “red”");
    const italic = doc(
      p(
        t("A "),
        { type: "text", text: "b", marks: [{ type: "italic" }, { type: "deletion", attrs: { id: "s:1:1:z:Ann" } }] },
        ins("b", "s:1:1:z:Ann"),
      ),
    );
    const [plain] = listSuggestions(italic);
    expect(describeSuggestion(plain)).toBe("Make “b” not italic");
    state = start();
    expect(listSuggestions(state.doc.toJSON())).toEqual([]);
  });
});
