import { useEffect, useId, useState } from "react";
import {
  DEDICATION_MAX,
  FONT_SIZE,
  type FrontMatterPart,
  type PrintOptions,
  bookFonts,
  defaultPrintOptions,
  ornaments,
  printQuery,
  trimSizes,
} from "../../../../db/domain/print-options";
import { Button } from "~/ui/button";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { Dialog } from "~/ui/dialog";
import { SpreadPreview } from "./spread-preview";

const field = "w-full rounded-md border border-stone-300 px-3 py-2 text-sm focus:border-brand-600 focus:outline-none";
const frontLabels: Record<FrontMatterPart, string> = {
  title: "Title page",
  copyright: "Copyright page",
  dedication: "Dedication",
  toc: "Table of contents",
};
const sizes = Array.from({ length: (FONT_SIZE.max - FONT_SIZE.min) * 2 + 1 }, (_, i) => FONT_SIZE.min + i / 2);

/**
 * 'Print-ready PDF': the writer picks the trim, face, size, front matter, ornament and drop caps and sees a spread
 * of them (spread-preview.tsx); the server gives the book's Typst source for them and Typst (WebAssembly, loaded
 * when the dialog opens) typesets it here, in the browser, into the PDF that downloads. The engine is too large
 * for the Worker (docs/decisions.md).
 */
export function PrintPdfDialog({
  open,
  onOpenChange,
  timelineId,
  shareCode,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  timelineId: number;
  shareCode?: string | null;
}) {
  const [options, setOptions] = useState<PrintOptions>(defaultPrintOptions);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pdf, setPdf] = useState<{ url: string; name: string } | null>(null);
  const ids = { trim: useId(), font: useId(), size: useId(), ornament: useId(), dedication: useId() };
  const set = (patch: Partial<PrintOptions>) => {
    setOptions((o) => ({ ...o, ...patch }));
    setPdf(null);
  };
  useEffect(() => () => (pdf ? URL.revokeObjectURL(pdf.url) : undefined), [pdf]);

  async function make() {
    setBusy(true);
    setError(null);
    try {
      const share = shareCode ? `&${new URLSearchParams({ share: shareCode })}` : "";
      const res = await fetch(`/api/timelines/${timelineId}/export?format=typst&${printQuery(options)}${share}`);
      if (!res.ok) throw new Error(((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? "Could not load the book");
      const name = (/filename="([^"]+)\.typ"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1] ?? "book-print").concat(".pdf");
      const { typesetInBrowser } = await import("./browser-typeset");
      const bytes = await typesetInBrowser(await res.text(), options.font);
      const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: "application/pdf" }));
      setPdf({ url, name });
      const link = document.createElement("a");
      link.href = url;
      link.download = name;
      link.click();
    } catch (e) {
      setError(e instanceof Error ? e.message : "Could not typeset the book");
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Print-ready PDF"
      description="A paperback's interior for a print-on-demand service: the trim size, mirrored margins, running heads and chapters on right-hand pages. It is typeset in your browser."
    >
      <div className="space-y-3 text-sm">
        {open ? <SpreadPreview timelineId={timelineId} shareCode={shareCode} options={options} /> : null}
        <div className="grid grid-cols-2 gap-3">
          <label htmlFor={ids.trim} className="space-y-1">
            <span className="font-medium">Trim size</span>
            <select
              id={ids.trim}
              className={field}
              value={options.trim}
              onChange={(e) => set({ trim: e.target.value as PrintOptions["trim"] })}
            >
              {Object.entries(trimSizes).map(([value, { label }]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label htmlFor={ids.font} className="space-y-1">
            <span className="font-medium">Body font</span>
            <select
              id={ids.font}
              className={field}
              value={options.font}
              onChange={(e) => set({ font: e.target.value as PrintOptions["font"] })}
            >
              {Object.entries(bookFonts).map(([value, { label }]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label htmlFor={ids.size} className="space-y-1">
            <span className="font-medium">Font size</span>
            <select id={ids.size} className={field} value={options.size} onChange={(e) => set({ size: Number(e.target.value) })}>
              {sizes.map((size) => (
                <option key={size} value={size}>
                  {size} pt
                </option>
              ))}
            </select>
          </label>
          <label htmlFor={ids.ornament} className="space-y-1">
            <span className="font-medium">Scene break</span>
            <select
              id={ids.ornament}
              className={field}
              value={options.ornament}
              onChange={(e) => set({ ornament: e.target.value as PrintOptions["ornament"] })}
            >
              {Object.entries(ornaments).map(([value, { label }]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
        <fieldset className="space-y-1">
          <legend className="font-medium">Front matter</legend>
          {(Object.keys(frontLabels) as FrontMatterPart[]).map((part) => (
            <label key={part} className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={options.front.includes(part)}
                onChange={(e) => set({ front: e.target.checked ? [...options.front, part] : options.front.filter((p) => p !== part) })}
              />
              {frontLabels[part]}
            </label>
          ))}
        </fieldset>
        {options.front.includes("dedication") ? (
          <label htmlFor={ids.dedication} className="block space-y-1">
            <span className="font-medium">Dedication</span>
            <input
              id={ids.dedication}
              className={field}
              maxLength={DEDICATION_MAX}
              value={options.dedication}
              onChange={(e) => set({ dedication: e.target.value })}
            />
          </label>
        ) : null}
        <label className="flex items-center gap-2">
          <input type="checkbox" checked={options.dropCaps} onChange={(e) => set({ dropCaps: e.target.checked })} />
          Large initial letter at each chapter's start
        </label>
        {error ? (
          <p role="alert" className="text-red-700">
            {error}
          </p>
        ) : null}
        {pdf ? (
          <p role="status">
            Downloaded {pdf.name}.{" "}
            <a href={pdf.url} target="_blank" rel="noreferrer" className="text-brand-700 underline">
              Open it
            </a>{" "}
            to read it through.
          </p>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <OnlineOnlyButton onClick={make} disabled={busy}>
            {busy ? "Typesetting…" : "Download PDF"}
          </OnlineOnlyButton>
        </div>
      </div>
    </Dialog>
  );
}
