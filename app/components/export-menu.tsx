import { ChevronDown, Download, FileJson, FileText, FileType, Printer } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

const item =
  "flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-ink outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-700";

/** The download address of one export format (DESIGN.md §10), with `?share=` in shared mode. */
export function exportHref(timelineId: number, format: "docx" | "md" | "json", shareCode?: string | null) {
  const query = new URLSearchParams({ format, ...(shareCode ? { share: shareCode } : {}) });
  return `/api/timelines/${timelineId}/export?${query}`;
}

export function printHref(timelineId: number, shareCode?: string | null) {
  return `/timeline/${timelineId}/print${shareCode ? `?${new URLSearchParams({ share: shareCode })}` : ""}`;
}

/**
 * 'Export': Word, Markdown and JSON downloads (plain links to the API: the browser saves the file
 * under the name the server gives) and the print view for a PDF. Anyone who can read the timeline
 * may export it, viewers and share links included.
 */
export function ExportMenu({ timelineId, shareCode, print = true }: { timelineId: number; shareCode?: string | null; print?: boolean }) {
  const formats = [
    { format: "docx", label: "Word (.docx)", Icon: FileType },
    { format: "md", label: "Markdown (.md)", Icon: FileText },
    { format: "json", label: "JSON (.json)", Icon: FileJson },
  ] as const;
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger asChild>
        <Button variant="outline">
          <Download aria-hidden="true" className="h-4 w-4" /> Export <ChevronDown aria-hidden="true" className="h-4 w-4 opacity-60" />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={4}
          className="z-50 min-w-48 rounded-md border border-stone-200 bg-white p-1 shadow-lg"
        >
          {formats.map(({ format, label, Icon }) => (
            <DropdownMenu.Item key={format} asChild className={item}>
              <a href={exportHref(timelineId, format, shareCode)} download>
                <Icon aria-hidden="true" className="h-4 w-4" /> {label}
              </a>
            </DropdownMenu.Item>
          ))}
          {print ? (
            <>
              <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
              <DropdownMenu.Item asChild className={item}>
                <Link to={printHref(timelineId, shareCode)}>
                  <Printer aria-hidden="true" className="h-4 w-4" /> Print / PDF
                </Link>
              </DropdownMenu.Item>
            </>
          ) : null}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
