export type ExportChoice = {
  format: "docx" | "md" | "json" | "epub";
  /** A .docx as the planning outline (the default) or in standard manuscript format. */
  style?: "outline" | "manuscript";
  /** `false`: the outline without its planning notes (story dates, codex). */
  notes?: boolean;
};

/** The download address of one export, with `?share=` in shared mode. */
export function exportHref(timelineId: number, { format, style, notes }: ExportChoice, shareCode?: string | null) {
  const query = new URLSearchParams({
    format,
    ...(style ? { style } : {}),
    ...(notes === false ? { notes: "0" } : {}),
    ...(shareCode ? { share: shareCode } : {}),
  });
  return `/api/timelines/${timelineId}/export?${query}`;
}

export function printHref(timelineId: number, shareCode?: string | null) {
  return `/timeline/${timelineId}/print${shareCode ? `?${new URLSearchParams({ share: shareCode })}` : ""}`;
}

export type ExportMenuProps = {
  timelineId: number;
  shareCode?: string | null;
  print?: boolean;
  /** The timeline a writer who may edit it can import a file into (the menu then offers 'Import a file…'). */
  importInto?: { id: number; title: string };
};
