import type { JSONContent } from "@tiptap/core";
import { type IRunOptions, TextRun } from "docx";

// An editor paragraph's inline content as Word runs: each text node's marks become run properties, a hard
// break and a line break typed inside a paragraph become a line break in Word. Text is written exactly as it
// is in the editor (the Markdown was parsed, so no escapes or entities are left in it).

/** Scripts written right to left (Unicode bidi classes R and AL). */
const RTL =
  /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Yezidi}\p{Script=Old_South_Arabian}\p{Script=Imperial_Aramaic}\p{Script=Phoenician}]/u;
const STRONG = /\p{L}/u;

/** Whether text whose first letter is of a right-to-left script reads right to left, as `dir="auto"` decides. */
export function isRightToLeft(text: string) {
  for (const ch of text) if (STRONG.test(ch)) return RTL.test(ch);
  return false;
}

const hasLeftToRight = (text: string) => [...text].some((ch) => STRONG.test(ch) && !RTL.test(ch));

/** The plain text of a node and its descendants. */
export function textOf(node: JSONContent): string {
  if (node.type === "text") return node.text ?? "";
  if (node.type === "hardBreak") return "\n";
  return (node.content ?? []).map(textOf).join("");
}

type Base = Pick<IRunOptions, "bold" | "italics" | "color">;

function markOptions(marks: JSONContent["marks"]): Partial<IRunOptions> {
  const options: { -readonly [K in keyof IRunOptions]?: IRunOptions[K] } = {};
  for (const mark of marks ?? []) {
    if (mark.type === "bold") options.bold = true;
    else if (mark.type === "italic") options.italics = true;
    else if (mark.type === "strike") options.strike = true;
    else if (mark.type === "code") {
      options.font = "Courier New";
      options.shading = { type: "clear", fill: "F2F2F2", color: "auto" };
    } else if (mark.type === "underline") options.underline = {};
  }
  return options;
}

/**
 * The runs of a paragraph's inline nodes. In a right-to-left paragraph every run without left-to-right letters
 * is marked right to left too (w:rtl), so its punctuation and spaces take the paragraph's direction.
 */
export function inlineRuns(nodes: JSONContent[] | undefined, rtl: boolean, base: Base = {}): TextRun[] {
  const runs: TextRun[] = [];
  for (const node of nodes ?? []) {
    if (node.type === "hardBreak") {
      runs.push(new TextRun({ break: 1 }));
      continue;
    }
    const text = node.type === "text" ? (node.text ?? "") : textOf(node);
    const options = { ...base, ...markOptions(node.marks), ...(rtl && !hasLeftToRight(text) ? { rightToLeft: true } : {}) };
    text.split(/\r\n|[\n\r\u2028\u2029]/).forEach((line, i) => {
      if (line || i > 0) runs.push(new TextRun({ ...options, text: line, ...(i > 0 ? { break: 1 } : {}) }));
    });
  }
  return runs;
}

/** Plain text (a title, a description line) as runs. */
export const plainRuns = (text: string, rtl: boolean, base: Base = {}) => inlineRuns([{ type: "text", text }], rtl, base);
