// The choices of a print-ready book (trim size, body face, size, front matter, scene-break ornament, drop caps),
// read from the export URL's query by the API and offered by the app's dialog: one declaration for both.

/** Trim sizes print-on-demand services take for novels: width × height in inches (A5 in millimetres). */
export const trimSizes = {
  "5x8": { label: "5 × 8 in", width: "5in", height: "8in" },
  "5.25x8": { label: "5.25 × 8 in", width: "5.25in", height: "8in" },
  "5.5x8.5": { label: "5.5 × 8.5 in", width: "5.5in", height: "8.5in" },
  "6x9": { label: "6 × 9 in", width: "6in", height: "9in" },
  A5: { label: "A5 (148 × 210 mm)", width: "148mm", height: "210mm" },
} as const;
export type TrimSize = keyof typeof trimSizes;

/** Open-licence (SIL OFL) book faces; `family` is the name the typesetter knows the font files by. */
export const bookFonts = {
  "eb-garamond": { label: "EB Garamond", family: "EB Garamond" },
  "crimson-pro": { label: "Crimson Pro", family: "Crimson Pro" },
  "libre-baskerville": { label: "Libre Baskerville", family: "Libre Baskerville" },
} as const;
export type BookFont = keyof typeof bookFonts;

/**
 * Faces for the scripts the book faces do not have (Noto, SIL OFL): the typesetter falls back to them glyph by
 * glyph, and whoever compiles the book adds only those whose script its text uses (`scriptsOf`).
 */
export const scriptFonts = {
  arabic: { family: "Noto Naskh Arabic", test: /\p{Script=Arabic}/u },
  hebrew: { family: "Noto Serif Hebrew", test: /\p{Script=Hebrew}/u },
  cjk: { family: "Noto Serif SC", test: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u },
} as const;
export type ScriptFont = keyof typeof scriptFonts;

/** The scripts of `text` that need a face of their own, in `scriptFonts` order. */
export const scriptsOf = (text: string) =>
  (Object.keys(scriptFonts) as ScriptFont[]).filter((script) => scriptFonts[script].test.test(text));

export const ornaments = {
  dinkus: { label: "* * *", mark: "*  *  *" },
  dots: { label: "· · ·", mark: "·  ·  ·" },
  blank: { label: "A blank line", mark: "" },
} as const;
export type Ornament = keyof typeof ornaments;

export const frontMatterParts = ["title", "copyright", "dedication", "toc"] as const;
export type FrontMatterPart = (typeof frontMatterParts)[number];

export const FONT_SIZE = { min: 9, max: 14, default: 11 } as const;
export const DEDICATION_MAX = 300;

export type PrintOptions = {
  trim: TrimSize;
  font: BookFont;
  /** Body text in points, in half points from 9 to 14. */
  size: number;
  front: FrontMatterPart[];
  dedication: string;
  ornament: Ornament;
  dropCaps: boolean;
};

export const defaultPrintOptions: PrintOptions = {
  trim: "6x9",
  font: "eb-garamond",
  size: FONT_SIZE.default,
  front: ["title", "copyright", "toc"],
  dedication: "",
  ornament: "dinkus",
  dropCaps: true,
};

type Query = Record<string, string | undefined>;
const listOf = (values: Record<string, unknown>) => Object.keys(values).join(", ");

/** The options from a query, or the first thing wrong with it as a sentence for a 400. Absent keys take the defaults. */
export function parsePrintOptions(query: Query): { options: PrintOptions } | { error: string } {
  const { trim = defaultPrintOptions.trim, font = defaultPrintOptions.font, ornament = defaultPrintOptions.ornament } = query;
  if (!Object.hasOwn(trimSizes, trim)) return { error: `Trim must be one of ${listOf(trimSizes)}` };
  if (!Object.hasOwn(bookFonts, font)) return { error: `Font must be one of ${listOf(bookFonts)}` };
  if (!Object.hasOwn(ornaments, ornament)) return { error: `Ornament must be one of ${listOf(ornaments)}` };
  const size = query.size === undefined ? FONT_SIZE.default : Number(query.size);
  if (!/^\d{1,2}(\.[05])?$/.test(query.size ?? "11") || size < FONT_SIZE.min || size > FONT_SIZE.max)
    return { error: `Size must be a number of points from ${FONT_SIZE.min} to ${FONT_SIZE.max}, in half points` };
  const front = query.front === undefined ? defaultPrintOptions.front : query.front.split(",").filter((part) => part !== "");
  const unknown = front.find((part) => !frontMatterParts.includes(part as FrontMatterPart));
  if (unknown !== undefined) return { error: `Front matter may hold ${frontMatterParts.join(", ")}` };
  const dedication = (query.dedication ?? "").trim();
  if (dedication.length > DEDICATION_MAX) return { error: `The dedication must be at most ${DEDICATION_MAX} characters` };
  const dropCaps = query.dropcaps ?? "1";
  if (dropCaps !== "0" && dropCaps !== "1") return { error: "Dropcaps must be 0 or 1" };
  return {
    options: {
      trim: trim as TrimSize,
      font: font as BookFont,
      size,
      front: frontMatterParts.filter((part) => front.includes(part)),
      dedication,
      ornament: ornament as Ornament,
      dropCaps: dropCaps === "1",
    },
  };
}

/** The query that asks for these options (the dialog's download and its preview use it). */
export function printQuery(options: PrintOptions) {
  const params = new URLSearchParams({
    trim: options.trim,
    font: options.font,
    size: String(options.size),
    front: options.front.join(","),
    ornament: options.ornament,
    dropcaps: options.dropCaps ? "1" : "0",
  });
  if (options.dedication) params.set("dedication", options.dedication);
  return params.toString();
}
