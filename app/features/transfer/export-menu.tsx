import { useOfflineLock } from "~/features/offline/offline-lock";
import type { ExportMenuProps } from "~/features/transfer/export-links";
import { ExportTrigger } from "~/features/transfer/export-trigger";
import { LazyPopup, onDemand } from "~/ui/lazy-popup";

const radixMenu = onDemand(() => import("~/features/transfer/export-menu-radix").then((m) => m.RadixExportMenu));

/**
 * 'Export': the Word outline, the manuscript, EPUB, Markdown and JSON downloads and the print view for a PDF (export-menu-radix.tsx). The
 * dropdown's code loads on first use, so the timeline page paints with less JavaScript. Offline, the button stays
 * disabled and says 'You're offline' (every entry needs the server).
 */
export function ExportMenu(props: ExportMenuProps) {
  const { offline, lock, note } = useOfflineLock();
  if (offline) {
    return (
      <>
        <ExportTrigger {...lock} />
        {note}
      </>
    );
  }
  return <LazyPopup component={radixMenu} props={props} haspopup="menu" trigger={(t) => <ExportTrigger {...t} />} />;
}
