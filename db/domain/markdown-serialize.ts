import type { JSONContent } from "@tiptap/core";
import { withoutSuggestions } from "./suggestions";

// The editor's document as plain CommonMark. Characters a writer typed stay as typed and are escaped only where
// a CommonMark reader (and the editor's own parser) would otherwise read them as syntax: emphasis delimiters
// that could open or close, a `](` that would make a link, a `<` that would start a tag, an entity, and block
// markers at the start of a line (`#`, `>`, `-`, `1.`, fences, rules, setext underlines).

// Marks a paragraph's line after a hard break: in a list item it is indented by two spaces whatever the marker's
// width (the editor's parser removes two; CommonMark reads it as the paragraph's continuation either way).
const LAZY = "\u0000";

type Mark = { type: string };
const DELIMITERS: Record<string, string> = { bold: "**", italic: "*", strike: "~~" };

const isSpace = (c: string | undefined) => c === undefined || /\s/u.test(c);
const isPunct = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);

/** Whether a run of `*`, `_` or `~` between `prev` and `next` could open or close emphasis. */
function mayDelimit(char: string, prev: string | undefined, next: string | undefined) {
  const left = !isSpace(next) && (!isPunct(next) || isSpace(prev) || isPunct(prev));
  const right = !isSpace(prev) && (!isPunct(prev) || isSpace(next) || isPunct(next));
  if (char !== "_") return left || right;
  return (left && (!right || isPunct(prev))) || (right && (!left || isPunct(next)));
}

/**
 * Escapes one text node's characters. `lineStart`: the text begins a line; `block`: whether the paragraph has
 * more than one run of backticks (they could pair into a code span) and a `>` (a `<` before it could open a tag
 * to the editor's parser).
 */
function escapeText(text: string, lineStart: boolean, block: { backticks: boolean; angle: boolean }) {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "*" || c === "_" || c === "~") {
      let end = i;
      while (text[end + 1] === c) end++;
      const run = text.slice(i, end + 1);
      const prev = i === 0 ? (lineStart ? " " : undefined) : text[i - 1];
      const next = text[end + 1];
      // A run touching another node (a mark's delimiter, a code span) is always escaped.
      const atEdge = (i === 0 && !lineStart) || end === text.length - 1;
      out += atEdge || mayDelimit(c, prev, next) ? run.replace(/./g, "\\$&") : run;
      i = end;
    } else if (c === "\\") {
      const next = text[i + 1];
      out += next === undefined || /[!-/:-@[-`{-~]/.test(next) ? "\\\\" : c;
    } else if (c === "`") {
      out += block.backticks || (i === 0 && lineStart) ? "\\`" : c;
    } else if (c === "]") {
      out += i === text.length - 1 || /[([:]/.test(text[i + 1]) ? "\\]" : c;
    } else if (c === "<") {
      out += block.angle || i === text.length - 1 || /[A-Za-z/!?]/.test(text[i + 1]) ? "\\<" : c;
    } else if (c === "&") {
      out += /^&(?:[A-Za-z][A-Za-z0-9]*|#\d+|#[xX][0-9a-fA-F]+);/.test(text.slice(i)) ? "\\&" : c;
    } else {
      out += c;
    }
  }
  return out;
}

/** A line CommonMark reads as a rule (`---`, `* * *`, and `- --`: a bullet and two dashes). */
const THEMATIC_BREAK = /^([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/**
 * Block markers a line of literal text would otherwise start with. `first`: the block's first line. The editor's
 * parser also reads `a.`, `iv.` as lettered and roman lists and `[x]` as a task, so those are escaped too, as is a
 * `[` that could start a link reference definition (its label may go on past a hard break: a `[` with no `]` after
 * it on its line).
 */
function escapeLineStart(line: string, first: boolean) {
  let out = line
    .replace(/^(#{1,6})(?=[ \t]|$)/, "\\$1")
    .replace(/^>/, "\\>")
    .replace(/^([-+*])(?=[ \t]|$)/, "\\$1")
    .replace(/^(\d+|[ivxlcdmIVXLCDM]+|[A-Za-z]{1,2})([.)])(?=[ \t]|$)/, "$1\\$2")
    .replace(/^\[(?=[ xX]\]|.*\]:|[^\]]*$)/, "\\[")
    .replace(/^~{3,}/, "\\$&");
  if (THEMATIC_BREAK.test(out)) out = `\\${out}`;
  // A later line that reads as a setext underline or a table's delimiter row would change the block above it.
  if (!first && (/^(?:=+|-+)[ \t]*$/.test(out) || /^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-*:?[ \t]*)*$/.test(out))) out = `\\${out}`;
  return out;
}

function codeSpan(text: string) {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  const pad = /^`|`$/.test(text) || (/^ .*[^ ].* $/.test(text) && text.trim() !== "") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A paragraph's or heading's inline content, as lines (split at hard breaks). */
function inlineLines(nodes: JSONContent[], inHeading: boolean) {
  const backticks = nodes.reduce(
    (n, node) => n + (node.marks?.some((m) => m.type === "code") ? 2 : ((node.text ?? "").match(/`+/g)?.length ?? 0)),
    0,
  );
  const block = { backticks: backticks > 1, angle: nodes.some((node) => node.text?.includes(">")) };
  const lines: string[] = [];
  let line = "";
  let lineHasText = false;
  let open: Mark[] = [];
  let pending = "";
  const closeTo = (keep: number) => {
    for (let k = open.length - 1; k >= keep; k--) line += DELIMITERS[open[k].type] ?? "";
    open = open.slice(0, keep);
  };
  const endLine = () => {
    closeTo(0);
    lines.push(line + pending);
    line = "";
    pending = "";
    lineHasText = false;
  };
  for (const node of nodes) {
    if (node.type === "hardBreak") {
      if (inHeading) pending += " ";
      else endLine();
      continue;
    }
    if (node.type !== "text" || !node.text) continue;
    const value = node.text.replaceAll(LAZY, "");
    const marks = (node.marks ?? []) as Mark[];
    if (marks.some((m) => m.type === "code")) {
      closeTo(0);
      line += pending + codeSpan(value);
      pending = "";
      lineHasText = true;
      continue;
    }
    const [, lead, core, trail] = value.match(/^(\s*)([\s\S]*?)(\s*)$/) ?? ["", "", value, ""];
    // Whitespace alone opens no mark; it stays inside the marks around it that it carries too.
    const carried = core ? marks : marks.filter((m) => open.some((o) => o.type === m.type));
    const wanted = carried.filter((m) => DELIMITERS[m.type]);
    let keep = 0;
    while (keep < open.length && wanted.some((m) => m.type === open[keep].type)) keep++;
    closeTo(keep);
    line += pending + lead;
    pending = "";
    for (const mark of wanted) {
      if (!open.some((m) => m.type === mark.type)) {
        line += DELIMITERS[mark.type];
        open.push(mark);
      }
    }
    const startsLine = !lineHasText && open.length === 0 && !lead;
    line += escapeText(core, startsLine, block);
    if (core) lineHasText = true;
    pending = trail;
  }
  endLine();
  // A heading's text may start with anything; only a closing run of `#` would be dropped.
  if (inHeading) return [lines[0].replace(/(^|[ \t])(#+[ \t]*)$/, "$1\\$2")];
  return lines.map((l, i) => escapeLineStart(l, i === 0));
}

const indent = (text: string, first: string, rest: string) =>
  text
    .split("\n")
    .map((l, i) => (i === 0 ? first + l : l.startsWith(LAZY) ? `  ${l.slice(1)}` : l ? rest + l : l))
    .join("\n");

function listItems(node: JSONContent, marker: (i: number) => string) {
  return (node.content ?? [])
    .map((item, i) => {
      const m = marker(i);
      let body = blocks(item.content ?? []);
      // A first line of `--` after the bullet `- ` would read as a rule (`- --`), not as an item.
      if (THEMATIC_BREAK.test(`${m} ${body.split("\n", 1)[0]}`)) body = `\\${body}`;
      return body ? indent(body, `${m} `, " ".repeat(m.length + 1)) : m;
    })
    .join("\n");
}

function block(node: JSONContent, marker: string): string {
  switch (node.type) {
    case "paragraph":
      return inlineLines(node.content ?? [], false).join(`\\\n${LAZY}`);
    case "heading": {
      const text = inlineLines(node.content ?? [], true)[0];
      return `${"#".repeat(Math.min(6, Math.max(1, Number(node.attrs?.level) || 1)))}${text ? ` ${text}` : ""}`;
    }
    case "blockquote":
      return blocks(node.content ?? [])
        .split("\n")
        .map((l) => (l ? `> ${l}` : ">"))
        .join("\n");
    case "bulletList":
      return listItems(node, () => marker);
    case "orderedList": {
      const start = Number(node.attrs?.start ?? 1);
      return listItems(node, (i) => `${start + i}${marker === "*" ? ")" : "."}`);
    }
    case "horizontalRule":
      return "---";
    case "codeBlock": {
      const text = (node.content ?? [])
        .map((t) => t.text ?? "")
        .join("")
        .replaceAll(LAZY, "");
      const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
      const fence = "`".repeat(longest + 1);
      return `${fence}${node.attrs?.language ?? ""}\n${text}\n${fence}`;
    }
    default:
      return blocks(node.content ?? []);
  }
}

function blocks(nodes: JSONContent[]): string {
  let marker = "-";
  return nodes
    .map((node, i) => {
      // Back to back lists of a kind stay two lists with the other bullet (`*`) or delimiter (`1)`).
      marker = node.type === nodes[i - 1]?.type && marker === "-" ? "*" : "-";
      return block(node, marker);
    })
    .join("\n\n");
}

/**
 * The editor's document (its JSON) as CommonMark; an empty paragraph is an extra blank line. Pending suggestions
 * are not in it: the text is as it was before them.
 */
export function serializeMarkdown(doc: JSONContent): string {
  return blocks(withoutSuggestions(doc).content ?? [])
    .replaceAll(LAZY, "")
    .replace(/\s+$/, "");
}
