import { ChevronDown, Download } from "lucide-react";
import type { ComponentProps } from "react";
import { LazyPopup, onDemand } from "~/components/lazy-popup";
import { Button } from "~/components/ui/button";

/** The download address of one export format (DESIGN.md §10), with `?share=` in shared mode. */
export function exportHref(timelineId: number, format: "docx" | "md" | "json", shareCode?: string | null) {
  const query = new URLSearchParams({ format, ...(shareCode ? { share: shareCode } : {}) });
  return `/api/timelines/${timelineId}/export?${query}`;
}

export function printHref(timelineId: number, shareCode?: string | null) {
  return `/timeline/${timelineId}/print${shareCode ? `?${new URLSearchParams({ share: shareCode })}` : ""}`;
}

export type ExportMenuProps = { timelineId: number; shareCode?: string | null; print?: boolean };

/** The 'Export' button, as the stand-in before the menu code loads and as the real menu's trigger. */
export function ExportTrigger(props: ComponentProps<"button">) {
  return (
    <Button variant="outline" {...props}>
      <Download aria-hidden="true" className="h-4 w-4" /> Export <ChevronDown aria-hidden="true" className="h-4 w-4 opacity-60" />
    </Button>
  );
}

const radixMenu = onDemand(() => import("~/components/export-menu-radix").then((m) => m.RadixExportMenu));

/**
 * 'Export': Word, Markdown and JSON downloads and the print view for a PDF (export-menu-radix.tsx). The
 * dropdown's code loads on first use (issue 11), so the timeline page paints with less JavaScript.
 */
export function ExportMenu(props: ExportMenuProps) {
  return <LazyPopup component={radixMenu} props={props} haspopup="menu" trigger={(t) => <ExportTrigger {...t} />} />;
}
