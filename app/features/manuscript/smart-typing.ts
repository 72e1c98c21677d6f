import { Extension, textInputRule } from "@tiptap/core";
import Typography from "@tiptap/extension-typography";
import { Focus } from "@tiptap/extensions";

// The manuscript editor's typing aids: curly quotes and apostrophes, `--` → – and `---` → —, `...` → …, and the
// paragraph holding the caret marked (focus mode dims the others). The timeline's card editor keeps straight text.

const Dashes = Extension.create({
  name: "manuscriptDashes",
  addInputRules() {
    return [
      // A third hyphen after an en dash makes the em dash (the en dash came from the first two).
      textInputRule({ find: /–-$/, replace: "—" }),
      // Not at a paragraph's start: `---` there stays the scene break's shortcut.
      textInputRule({ find: /(?<=[^-–—])--$/, replace: "–" }),
    ];
  },
});

const off = false as const;

export const manuscriptExtensions = () => [
  Typography.configure({
    emDash: off,
    leftArrow: off,
    rightArrow: off,
    copyright: off,
    trademark: off,
    servicemark: off,
    registeredTrademark: off,
    oneHalf: off,
    plusMinus: off,
    notEqual: off,
    laquo: off,
    raquo: off,
    multiplication: off,
    superscriptTwo: off,
    superscriptThree: off,
    oneQuarter: off,
    threeQuarters: off,
  }),
  Dashes,
  Focus.configure({ className: "has-focus", mode: "shallowest" }),
];
