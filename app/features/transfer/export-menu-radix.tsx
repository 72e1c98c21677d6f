import { BookMarked, BookOpen, FileJson, FileText, FileType, NotebookPen, Printer, Upload } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import { Suspense, lazy, useState } from "react";
import { Link } from "react-router";
import { type ExportChoice, type ExportMenuProps, exportHref, printHref } from "~/features/transfer/export-links";
import { ExportTrigger } from "~/features/transfer/export-trigger";

// The import dialog and its parsers load when the writer first picks 'Import a file…'.
const ImportFileDialog = lazy(() => import("~/features/transfer/import-dialog").then((m) => ({ default: m.ImportFileDialog })));
const PrintPdfDialog = lazy(() => import("~/features/transfer/print/print-pdf-dialog").then((m) => ({ default: m.PrintPdfDialog })));

const item =
  "flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-ink outline-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-700";

const formats: (ExportChoice & { label: string; Icon: typeof FileType })[] = [
  { format: "docx", label: "Word (.docx)", Icon: FileType },
  { format: "docx", notes: false, label: "Word without planning notes", Icon: FileType },
  { format: "docx", style: "manuscript", label: "Manuscript (.docx)", Icon: NotebookPen },
  { format: "epub", label: "EPUB", Icon: BookOpen },
  { format: "md", label: "Markdown (.md)", Icon: FileText },
  { format: "json", label: "JSON (.json)", Icon: FileJson },
];

/**
 * 'Export': the Word outline (with or without its planning notes), the manuscript in standard manuscript
 * format, an EPUB for e-readers, a print-ready PDF (typeset in the browser), Markdown and JSON (plain links to the API: the browser saves the file
 * under the name the server gives) and the print view for a PDF. Anyone who can read the timeline
 * may export it, viewers and share links included. A writer who may edit it can also import a file into it here.
 */
export function RadixExportMenu({
  timelineId,
  shareCode,
  print = true,
  importInto,
  defaultOpen,
}: ExportMenuProps & { defaultOpen?: boolean }) {
  const [importing, setImporting] = useState<boolean | null>(null);
  const [printing, setPrinting] = useState<boolean | null>(null);
  return (
    <>
      <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
        <DropdownMenu.Trigger asChild>
          <ExportTrigger />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            className="z-50 min-w-48 rounded-md border border-stone-200 bg-white p-1 shadow-lg"
          >
            {formats.map(({ label, Icon, ...choice }) => (
              <DropdownMenu.Item key={label} asChild className={item}>
                <a href={exportHref(timelineId, choice, shareCode)} download>
                  <Icon aria-hidden="true" className="h-4 w-4" /> {label}
                </a>
              </DropdownMenu.Item>
            ))}
            <DropdownMenu.Item className={item} onSelect={() => setPrinting(true)}>
              <BookMarked aria-hidden="true" className="h-4 w-4" /> Print-ready PDF…
            </DropdownMenu.Item>
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
            {importInto ? (
              <>
                <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
                <DropdownMenu.Item className={item} onSelect={() => setImporting(true)}>
                  <Upload aria-hidden="true" className="h-4 w-4" /> Import a file…
                </DropdownMenu.Item>
              </>
            ) : null}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {importInto && importing !== null ? (
        <Suspense fallback={null}>
          <ImportFileDialog open={importing} onOpenChange={setImporting} into={{ ...importInto, shareCode }} />
        </Suspense>
      ) : null}
      {printing !== null ? (
        <Suspense fallback={null}>
          <PrintPdfDialog open={printing} onOpenChange={setPrinting} timelineId={timelineId} shareCode={shareCode} />
        </Suspense>
      ) : null}
    </>
  );
}
