import { AlignmentType, LineRuleType } from "docx";
import { INDENT_STEP, styleSet } from "./styles";

// Standard manuscript format (William Shunn's, the one agents and editors ask for): 12 pt Times New Roman,
// double-spaced, every paragraph's first line indented half an inch, no space between paragraphs, black text.
// Headings keep Word's built-in styles with their outline level, so the Navigator lists the chapters.

export const MANUSCRIPT_FONT = "Times New Roman";
/** Half-points: 12 pt. */
export const MANUSCRIPT_SIZE = 24;
/** Double spacing: 480 twentieths of a line ('auto' line rule). */
export const DOUBLE_SPACING = 480;
/** One inch, in twips: the page margins. */
export const INCH = 1440;
/** Text width of a Letter page with 1-inch margins, in twips (the title page's right tab stop). */
export const TEXT_WIDTH = 9360;

const run = { font: MANUSCRIPT_FONT, size: MANUSCRIPT_SIZE, color: "000000" };
const unindented = { firstLine: 0 };

const heading = (level: number) => ({
  run: { ...run, bold: level <= 2, italics: level > 2 },
  paragraph: {
    outlineLevel: level - 1,
    keepNext: true,
    keepLines: true,
    indent: unindented,
    // A chapter starts about a third of the way down its page.
    ...(level === 1 ? { alignment: AlignmentType.CENTER, spacing: { before: 2 * INCH, after: DOUBLE_SPACING } } : {}),
  },
});

const singleSpaced = { line: 240, lineRule: LineRuleType.AUTO };

export const manuscriptStyles = styleSet({
  document: {
    run: { font: MANUSCRIPT_FONT, size: MANUSCRIPT_SIZE },
    paragraph: {
      spacing: { line: DOUBLE_SPACING, lineRule: LineRuleType.AUTO, before: 0, after: 0 },
      indent: { firstLine: INDENT_STEP },
    },
  },
  title: { run, paragraph: { outlineLevel: 0, alignment: AlignmentType.CENTER, indent: unindented } },
  heading,
  quote: { paragraph: { indent: { left: INDENT_STEP, right: INDENT_STEP, firstLine: 0 } } },
  code: { run: { font: "Courier New" }, paragraph: { indent: unindented } },
  sceneBreak: { paragraph: { alignment: AlignmentType.CENTER, indent: unindented } },
  more: [
    {
      id: "TitlePageLine",
      name: "Title Page Line",
      basedOn: "Normal",
      next: "Normal",
      paragraph: { indent: unindented, spacing: singleSpaced },
    },
    {
      id: "ManuscriptHeader",
      name: "Manuscript Header",
      basedOn: "Normal",
      next: "Normal",
      paragraph: { alignment: AlignmentType.RIGHT, indent: unindented, spacing: singleSpaced },
    },
  ],
});
