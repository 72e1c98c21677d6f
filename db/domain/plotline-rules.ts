// Plotlines' limits, messages and palette, without zod: the screens import these too.

export const plotlineLimits = { title: 100, plotlineIds: 200 } as const;

/** The manager's palette: distinct on light and dark cards, each readable behind white text. */
export const plotlinePalette = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#db2777", "#4d7c0f"] as const;

/** A new plotline's color when none is given: the palette in turn. */
export const defaultPlotlineColor = (index: number) => plotlinePalette[index % plotlinePalette.length];

export const plotlineMessages = {
  titleRequired: "Plotline title is required",
  titleTooLong: `Plotline title must be ${plotlineLimits.title} characters or less`,
  color: "Color must be a hex color like #a1b2c3",
  position: "Position must be a whole number",
  plotlineIds: "Plotlines must be a list of plotline ids",
  foreignPlotline: "Plotlines must belong to this timeline",
  notFound: "Plotline not found",
} as const;
