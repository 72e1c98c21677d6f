import type { JSONContent } from "@tiptap/core";

// The Markdown parser (marked, under @tiptap/markdown) has inputs it cannot take: its emphasis search grows with the
// square of the `*`, `_` and `~` markers in a paragraph that never close (50,000 characters of `(_a` take a
// minute), and blocks nested some thousand deep (`> > > …`, `- - - …`) overflow its stack. Stored text is read by
// every card, print and export render and by the shared doc, so such a text is read as plain lines instead.

/** The emphasis search's work: the squared marker count of each blank-line separated part (a paragraph never spans two). */
export function emphasisCost(markdown: string) {
  let cost = 0;
  let markers = 0;
  let blank = true;
  for (let i = 0; i <= markdown.length; i++) {
    const ch = markdown[i];
    if (ch === "\\") i++;
    else if (ch === "*" || ch === "_" || ch === "~") markers++;
    else if (ch === "\n" || ch === undefined) {
      if (blank || ch === undefined) {
        cost += markers * markers;
        markers = 0;
      }
      blank = true;
      continue;
    }
    if (ch !== " " && ch !== "\t" && ch !== "\r") blank = false;
  }
  return cost;
}

/** Under half a second on a busy machine; a paragraph would need some 700 italic words to come near it. */
export const PARSE_BUDGET = 2_000_000;

/** Deeper than the shared doc accepts from a writer (see `checkContent`): read as plain lines. */
export const MAX_NESTING = 64;

/**
 * The deepest run of block markers (`>`, `-`, `*`, `+`, `1.`) and indentation opening any line, read in one pass
 * before parsing: the parser's work on such a line grows with the square of its depth (20,000 `> ` take it seconds
 * before its stack overflows), so a text past `MAX_NESTING` is never handed to it.
 */
export function markerDepthOf(markdown: string): number {
  let deepest = 0;
  for (const line of markdown.split(/\r\n|\r|\n/)) {
    let depth = 0;
    let i = 0;
    for (;;) {
      const start = i;
      while (line[i] === " " || line[i] === "\t") i++;
      const indent = i - start;
      const ch = line[i];
      let marker = 0;
      if (ch === ">" || ch === "-" || ch === "*" || ch === "+") marker = 1;
      else {
        let j = i;
        while (j < line.length && j - i < 9 && line[j] >= "0" && line[j] <= "9") j++;
        if (j > i && (line[j] === "." || line[j] === ")")) marker = j - i + 1;
      }
      const after = line[i + marker];
      if (marker === 0 || (after !== undefined && after !== " " && after !== "\t" && ch !== ">")) {
        depth += Math.floor(indent / 2);
        break;
      }
      depth += 1 + Math.floor(indent / 2);
      i += marker;
      if (depth > MAX_NESTING) return depth;
    }
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

export function nestingOf(node: JSONContent): number {
  let deepest = 0;
  // Iterative: the tree being measured may be deep enough to overflow a recursive walk.
  const stack: Array<[JSONContent, number]> = [[node, 1]];
  while (stack.length > 0) {
    const [n, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of n.content ?? []) stack.push([child, depth + 1]);
  }
  return deepest;
}

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#39;": "'" };

/** A text the parser cannot take: one paragraph per line, its characters as typed (escapes and entities read). */
export function plainLinesJson(markdown: string): JSONContent {
  const lines = markdown
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/\\([!-/:-@[-`{-~])|&(?:lt|gt|amp|quot|#39);/g, (m, ch) => ch ?? ENTITIES[m]))
    .filter((line) => line.trim());
  return {
    type: "doc",
    content: lines.length ? lines.map((text) => ({ type: "paragraph", content: [{ type: "text", text }] })) : [{ type: "paragraph" }],
  };
}
