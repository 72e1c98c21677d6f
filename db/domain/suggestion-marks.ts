import { Mark } from "@tiptap/core";
import { SuggestionMarks, suggestionAuthor } from "./suggestions";

// The suggestion marks as Tiptap extensions: the names and attributes @handlewithcare/prosemirror-suggest-changes
// works with. The browser's editor gives them their colours and titles (app/features/co-writing/suggesting.tsx).

const idAttribute = { id: { default: null, rendered: false } };

/** A suggestion's look: its author's colour (`color`, in the browser) and 'Suggested by Name, time'. */
function look(id: unknown, color?: (userId: number) => string) {
  const author = suggestionAuthor(id);
  const when = author.at ? `, ${new Date(author.at).toLocaleString()}` : "";
  const hue = color && author.userId !== null ? color(author.userId) : null;
  return {
    "data-suggestion-id": typeof id === "string" || typeof id === "number" ? String(id) : "",
    title: `Suggested by ${author.name}${when}`,
    ...(hue ? { style: `--suggestion-color: ${hue}` } : {}),
  };
}

/** The suggestion marks in the shared schema (the browser and the server); `color`: an author's colour. */
export const suggestionMarkExtensions = (color?: (userId: number) => string) => [
  Mark.create({
    name: SuggestionMarks.insertion,
    inclusive: false,
    excludes: "deletion modification insertion",
    addAttributes: () => idAttribute,
    renderHTML: ({ mark }) => ["ins", { ...look(mark.attrs.id, color), "data-suggestion": "insertion" }, 0],
  }),
  Mark.create({
    name: SuggestionMarks.deletion,
    inclusive: false,
    excludes: "insertion modification deletion",
    addAttributes: () => idAttribute,
    renderHTML: ({ mark }) => ["del", { ...look(mark.attrs.id, color), "data-suggestion": "deletion" }, 0],
  }),
  Mark.create({
    name: SuggestionMarks.modification,
    inclusive: false,
    excludes: "deletion insertion",
    addAttributes: () => ({
      ...idAttribute,
      type: { default: null, rendered: false },
      attrName: { default: null, rendered: false },
      previousValue: { default: null, rendered: false },
      newValue: { default: null, rendered: false },
    }),
    renderHTML: () => ["span", { "data-suggestion": "modification" }, 0],
  }),
];
