import type { JSONContent } from "@tiptap/core";
import { markdownToJson } from "./rich-text";

// Stored Markdown as HTML for a reader, read exactly as the co-writing editor reads it (its own parser), then
// written out by a walker over the editor's node and mark types. Every text is escaped; unknown nodes keep
// only their text. Shared by the server (first paint) and the browser (a lazy chunk).

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

const MARKS: Record<string, string> = { bold: "strong", italic: "em", strike: "s", code: "code" };
const BLOCKS: Record<string, string> = { paragraph: "p", blockquote: "blockquote", bulletList: "ul", listItem: "li" };

function textHtml(node: JSONContent) {
  let html = escapeHtml(node.text ?? "");
  // Marks nest in the editor's order, the outermost first.
  for (const mark of [...(node.marks ?? [])].reverse()) {
    const tag = MARKS[mark.type];
    if (tag) html = `<${tag}>${html}</${tag}>`;
  }
  return html;
}

function nodeHtml(node: JSONContent, top: number): string {
  const inner = () => (node.content ?? []).map((child) => nodeHtml(child, top)).join("");
  switch (node.type) {
    case "text":
      return textHtml(node);
    case "hardBreak":
      return "<br>";
    case "horizontalRule":
      return '<hr class="scene-break">';
    case "heading": {
      const level = Math.min(6, Math.max(1, Number(node.attrs?.level) || 1) + top - 1);
      return `<h${level} dir="auto">${inner()}</h${level}>`;
    }
    case "orderedList": {
      const start = Number(node.attrs?.start ?? 1);
      return `<ol${Number.isInteger(start) && start !== 1 ? ` start="${start}"` : ""}>${inner()}</ol>`;
    }
    case "codeBlock":
      return `<pre dir="auto"><code>${inner()}</code></pre>`;
    case "doc":
      return inner();
    default: {
      const tag = BLOCKS[node.type ?? ""];
      if (!tag) return inner();
      const dir = tag === "ul" ? "" : ' dir="auto"';
      return `<${tag}${dir}>${inner()}</${tag}>`;
    }
  }
}

/**
 * Stored Markdown as escaped HTML (`dir="auto"` on every block, so right-to-left paragraphs read right).
 * `top`: the HTML level of a first-level heading, so the text's headings sit below the page's own (a card
 * titled with an h3 shows `#` as h4); deeper levels follow, up to h6.
 */
export function markdownToHtml(md: string, top = 1) {
  if (md.trim() === "") return "";
  try {
    return nodeHtml(markdownToJson(md), top);
  } catch {
    return `<p dir="auto">${escapeHtml(md)}</p>`;
  }
}
