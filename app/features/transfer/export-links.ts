/** The download address of one export format, with `?share=` in shared mode. */
export function exportHref(timelineId: number, format: "docx" | "md" | "json", shareCode?: string | null) {
  const query = new URLSearchParams({ format, ...(shareCode ? { share: shareCode } : {}) });
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
