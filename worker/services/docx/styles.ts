import {
  AlignmentType,
  type IDocumentDefaultsOptions,
  type ILevelsOptions,
  type IParagraphStyleOptions,
  type IParagraphStylePropertiesOptions,
  type IRunStylePropertiesOptions,
  type IStylesOptions,
  LevelFormat,
  type NumberingDefinition,
} from "docx";

// The Word file's styles and list definitions. Headings are Word's built-in "Heading N" styles with their
// outline level written in the style (w:outlineLvl), which is what LibreOffice's Navigator, a table of
// contents and PDF bookmarks read; the title page's title is in the outline too, at the top level.

/** Word has Heading 1 to 9; an event's own headings start at Heading 2. */
export const MAX_HEADING = 9;
export const headingStyle = (level: number) => `Heading${Math.min(Math.max(level, 1), MAX_HEADING)}`;

export const QUOTE_STYLE = "Quote";
export const CODE_STYLE = "SourceCode";
export const SCENE_BREAK_STYLE = "SceneBreak";
/** What a scene break (the editor's horizontal rule) reads as: the centred mark of a typescript. */
export const SCENE_BREAK_MARK = "* * *";
/** A scene break in standard manuscript format. */
export const MANUSCRIPT_SCENE_BREAK = "#";

/** Twips of indent per list level or quote level (half an inch). */
export const INDENT_STEP = 720;
const HANGING = 360;

const headingRuns: Record<number, { size?: number; color: string; italics?: boolean }> = {
  1: { size: 32, color: "2E74B5" },
  2: { size: 26, color: "2E74B5" },
  3: { size: 24, color: "1F4D78" },
  4: { color: "2E74B5", italics: true },
  5: { color: "2E74B5" },
  6: { color: "1F4D78" },
};
const heading = (level: number) => ({
  run: headingRuns[level] ?? { color: "1F4D78", italics: true },
  paragraph: { outlineLevel: level - 1, keepNext: true, keepLines: true, spacing: { before: level === 1 ? 360 : 240, after: 120 } },
});

/** A style's look: its run (font) and paragraph properties. */
type Look = { run?: IRunStylePropertiesOptions; paragraph?: IParagraphStylePropertiesOptions };

const paragraphStyle = (id: string, name: string, look: Look, quickFormat = false): IParagraphStyleOptions => ({
  id,
  name,
  basedOn: "Normal",
  next: "Normal",
  ...(quickFormat && { quickFormat: true }),
  ...look,
});

/**
 * The styles every export has, in one shape: Word's title and Heading 1 to 9 (7 to 9 are not among docx's
 * defaults, so they are written as paragraph styles), the quote, code and scene-break styles, and any more.
 */
export function styleSet(looks: {
  document?: IDocumentDefaultsOptions;
  title: Look;
  heading: (level: number) => Look;
  quote: Look;
  code: Look;
  sceneBreak: Look;
  more?: IParagraphStyleOptions[];
}): IStylesOptions {
  const { heading } = looks;
  return {
    default: {
      ...(looks.document && { document: looks.document }),
      title: looks.title,
      heading1: heading(1),
      heading2: heading(2),
      heading3: heading(3),
      heading4: heading(4),
      heading5: heading(5),
      heading6: heading(6),
    },
    paragraphStyles: [
      ...Array.from({ length: MAX_HEADING - 6 }, (_, i) => i + 7).map((level) =>
        paragraphStyle(`Heading${level}`, `Heading ${level}`, heading(level), true),
      ),
      paragraphStyle(QUOTE_STYLE, "Quote", looks.quote, true),
      paragraphStyle(CODE_STYLE, "Source Code", looks.code),
      paragraphStyle(SCENE_BREAK_STYLE, "Scene Break", looks.sceneBreak),
      ...(looks.more ?? []),
    ],
  };
}

export const documentStyles = styleSet({
  title: { paragraph: { outlineLevel: 0, keepNext: true } },
  heading,
  quote: {
    run: { italics: true, color: "404040" },
    paragraph: { indent: { left: INDENT_STEP, right: INDENT_STEP }, spacing: { before: 120, after: 120 } },
  },
  code: { run: { font: "Courier New", size: 20 }, paragraph: { spacing: { before: 0, after: 0 } } },
  sceneBreak: { paragraph: { alignment: AlignmentType.CENTER, spacing: { before: 240, after: 240 } } },
});

const BULLETS = ["•", "◦", "▪"];
const NUMBER_FORMATS = [LevelFormat.DECIMAL, LevelFormat.LOWER_LETTER, LevelFormat.LOWER_ROMAN];

const levels = (ordered: boolean, start: number): ILevelsOptions[] =>
  Array.from({ length: 9 }, (_, level) => ({
    level,
    format: ordered ? NUMBER_FORMATS[level % 3] : LevelFormat.BULLET,
    text: ordered ? `%${level + 1}.` : BULLETS[level % 3],
    alignment: AlignmentType.START,
    start: level === 0 ? start : 1,
    style: { paragraph: { indent: { left: INDENT_STEP * (level + 1), hanging: HANGING } } },
  }));

/**
 * The document's list definitions, made as lists are met: one for bullets and one per first number an ordered
 * list starts at (Markdown's `3.` list starts at 3). Each list is its own instance, so numbering restarts.
 */
export class ListNumbering {
  private readonly definitions = new Map<string, NumberingDefinition>();
  private instances = 0;

  /** A new list: the reference and instance its items' paragraphs carry. */
  next(ordered: boolean, start = 1) {
    const reference = ordered ? `numbers-from-${start}` : "bullets";
    if (!this.definitions.has(reference)) this.definitions.set(reference, { reference, levels: levels(ordered, start) });
    this.instances += 1;
    return { reference, instance: this.instances };
  }

  get config() {
    return [...this.definitions.values()];
  }
}
