import { ChevronDown, Download } from "lucide-react";
import type { ComponentProps } from "react";
import { Button } from "~/ui/button";

/** The 'Export' button, as the stand-in before the menu code loads and as the real menu's trigger. */
export function ExportTrigger(props: ComponentProps<"button">) {
  return (
    <Button variant="outline" {...props}>
      <Download aria-hidden="true" className="h-4 w-4" /> Export <ChevronDown aria-hidden="true" className="h-4 w-4 opacity-60" />
    </Button>
  );
}
