import type { JSONContent } from "@tiptap/core";
import { AlignmentType, type IParagraphOptions, Paragraph, TextRun } from "docx";
import { markdownToJson } from "../../../db/domain/rich-text";
import { inlineRuns, isRightToLeft, textOf } from "./inline";
import {
  CODE_STYLE,
  INDENT_STEP,
  type ListNumbering,
  MANUSCRIPT_SCENE_BREAK,
  QUOTE_STYLE,
  SCENE_BREAK_MARK,
  SCENE_BREAK_STYLE,
  headingStyle,
} from "./styles";

// An event's text as Word paragraphs: its stored Markdown parsed into the editor's document (the same
// parser the co-writing editor uses), then each block of that document written as what Word has for it.

type Context = {
  numbering: ListNumbering;
  /** Added to an in-text heading's level to get its Heading style (the event's shallowest heading is Heading 2). */
  headingShift: number;
  quoteDepth: number;
  /** The list the blocks are in, and their level in it. */
  list?: { reference: string; instance: number; level: number };
  /** Whether the next paragraph starts a list item (carries its number or bullet). */
  itemStart?: boolean;
  /** Manuscript style: paragraphs take their spacing from the style, a scene break is a centred '#'. */
  manuscript: boolean;
  /** Shared by every copy of the context: the text's first paragraph starts a new page. */
  start: { pageBreakBefore: boolean };
  /**
   * Shared too. Manuscript style: the next body paragraph is set flush left, as a book sets the first paragraph
   * of a chapter and the one after a scene break (every other paragraph keeps its first-line indent).
   */
  flush: { next: boolean };
};

/** Whether this paragraph takes the flush-left first line (once, then the indent comes back). */
function takeFlushLeft(ctx: Context, options: IParagraphOptions) {
  if (!ctx.manuscript || !ctx.flush.next || options.style) return {};
  ctx.flush.next = false;
  if (ctx.list || ctx.quoteDepth > 0) return {};
  return { indent: { firstLine: 0 } };
}

/** Whether this is the text's first paragraph and it should start a new page (once). */
function takePageBreak(ctx: Context) {
  const pageBreakBefore = ctx.start.pageBreakBefore;
  ctx.start.pageBreakBefore = false;
  return pageBreakBefore ? { pageBreakBefore } : {};
}

function paragraph(nodes: JSONContent[] | undefined, ctx: Context, options: IParagraphOptions = {}) {
  const rtl = isRightToLeft(textOf({ content: nodes }));
  const { list, quoteDepth } = ctx;
  const listLevel = list ? list.level + 1 : 0;
  const indent = list || quoteDepth > 1 ? INDENT_STEP * (quoteDepth + listLevel) : undefined;
  const numbered = list && ctx.itemStart;
  ctx.itemStart = false;
  const flushLeft = takeFlushLeft(ctx, options);
  return new Paragraph({
    ...(quoteDepth > 0 && !options.style ? { style: QUOTE_STYLE } : {}),
    ...(!list && quoteDepth === 0 && !options.style && !ctx.manuscript ? { spacing: { after: 120 } } : {}),
    ...options,
    ...takePageBreak(ctx),
    ...(rtl ? { bidirectional: true } : {}),
    ...flushLeft,
    ...(numbered ? { numbering: { reference: list.reference, instance: list.instance, level: list.level } } : {}),
    // In a quote, a list's items move right with the quote (the list's own indent counts from the margin).
    ...(indent !== undefined && (quoteDepth > 0 || !numbered) ? { indent: { left: indent, ...(numbered ? { hanging: 360 } : {}) } } : {}),
    children: inlineRuns(nodes, rtl),
  });
}

function blockParagraphs(node: JSONContent, ctx: Context): Paragraph[] {
  switch (node.type) {
    case "paragraph":
      return [paragraph(node.content, ctx)];
    case "heading": {
      const level = Number(node.attrs?.level) || 1;
      return [paragraph(node.content, ctx, { style: headingStyle(level + ctx.headingShift) })];
    }
    case "horizontalRule":
      ctx.flush.next = true;
      return [
        new Paragraph({
          style: SCENE_BREAK_STYLE,
          alignment: AlignmentType.CENTER,
          ...takePageBreak(ctx),
          children: [new TextRun(ctx.manuscript ? MANUSCRIPT_SCENE_BREAK : SCENE_BREAK_MARK)],
        }),
      ];
    case "codeBlock":
      return [paragraph([{ type: "text", text: textOf(node) }], ctx, { style: CODE_STYLE })];
    case "blockquote":
      return childParagraphs(node, { ...ctx, quoteDepth: ctx.quoteDepth + 1 });
    case "bulletList":
    case "orderedList": {
      const start = node.type === "orderedList" ? Number(node.attrs?.start ?? 1) : 1;
      const { reference, instance } = ctx.numbering.next(node.type === "orderedList", Number.isInteger(start) ? start : 1);
      const level = Math.min(ctx.list ? ctx.list.level + 1 : 0, 8);
      // A list that opens an item: the item's number goes on the list's first paragraph, not on a later one.
      ctx.itemStart = false;
      return (node.content ?? []).flatMap((item) =>
        childParagraphs(item, { ...ctx, list: { reference, instance, level }, itemStart: true }),
      );
    }
    default:
      // Anything else the parser may make: its blocks, or its text as a paragraph.
      if (node.content?.some((child) => child.type !== "text" && child.type !== "hardBreak")) return childParagraphs(node, ctx);
      return node.content?.length ? [paragraph(node.content, ctx)] : [];
  }
}

/** The children of a container, in one context (so the first paragraph of a list item takes its number). */
function childParagraphs(node: JSONContent, ctx: Context): Paragraph[] {
  const inner = { ...ctx };
  return (node.content ?? []).flatMap((child) => blockParagraphs(child, inner));
}

function shallowestHeading(node: JSONContent): number {
  let level = node.type === "heading" ? Number(node.attrs?.level) || 1 : Number.POSITIVE_INFINITY;
  for (const child of node.content ?? []) level = Math.min(level, shallowestHeading(child));
  return level;
}

export type ContentOptions = {
  manuscript?: boolean;
  pageBreakBefore?: boolean;
  /** Manuscript style: the text's first paragraph is flush left (it opens a chapter or follows a scene break). */
  flushFirst?: boolean;
  /** The level of the heading the text sits under (default 1): its shallowest heading is one deeper. */
  headingBelow?: number;
};

/** The paragraphs of an event's stored Markdown; none for an empty text. */
export function contentParagraphs(markdown: string, numbering: ListNumbering, options: ContentOptions = {}): Paragraph[] {
  if (markdown.trim() === "") return [];
  // A text the parser cannot take comes back as plain lines (markdown-guard.ts).
  const doc = markdownToJson(markdown);
  const top = shallowestHeading(doc);
  return childParagraphs(doc, {
    numbering,
    headingShift: Number.isFinite(top) ? (options.headingBelow ?? 1) + 1 - top : 0,
    quoteDepth: 0,
    manuscript: options.manuscript ?? false,
    start: { pageBreakBefore: options.pageBreakBefore ?? false },
    flush: { next: options.flushFirst ?? false },
  });
}
