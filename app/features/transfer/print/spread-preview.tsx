import { useEffect, useRef, useState } from "react";
import { type PrintOptions, printQuery } from "../../../../db/domain/print-options";
import type { startPreview } from "./browser-typeset";

type Page = { url: string; width: number; height: number } | null;
type Shown = { left: Page; right: Exclude<Page, null> };

/** How long the options stay still before the preview is typeset again. */
const SETTLE_MS = 400;

// A data: URL rather than a blob: one: nothing to revoke, and the page's policy (connect-src) never has to let a
// blob be fetched back (a trace's snapshot does that).
const toImage = (page: { svg: string; width: number; height: number }) => ({
  url: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(page.svg)}`,
  width: page.width,
  height: page.height,
});

function Sheet({ page, side, fallback }: { page: Page; side: "Left" | "Right"; fallback: { width: number; height: number } }) {
  const { width, height } = page ?? fallback;
  const style = { aspectRatio: `${width} / ${height}` };
  const sheet = "h-80 w-auto bg-white shadow-sm ring-1 ring-stone-300";
  // A first page has no page facing it: the inside of the cover, blank.
  if (!page) return <div role="img" aria-label={`${side}-hand page (blank)`} className={sheet} style={style} />;
  return <img src={page.url} alt={`${side}-hand page`} width={width} height={height} className={sheet} style={style} />;
}

/**
 * 'Spread preview': two facing pages of the book as the PDF will have them, typeset by the same engine from the
 * same source with the dialog's options (only the book's start: spread.ts), again a moment after an option
 * changes. It exists only while the dialog is open: the engine and its worker load then and stop with it.
 */
export function SpreadPreview({
  timelineId,
  shareCode,
  options,
}: {
  timelineId: number;
  shareCode?: string | null;
  options: PrintOptions;
}) {
  const query = printQuery(options);
  const font = options.font;
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const preview = useRef<ReturnType<typeof startPreview>>(null);

  useEffect(
    () => () => {
      preview.current?.stop();
      preview.current = null;
    },
    [],
  );

  useEffect(() => {
    let stale = false;
    setBusy(true);
    const timer = setTimeout(async () => {
      try {
        const share = shareCode ? `&${new URLSearchParams({ share: shareCode })}` : "";
        const res = await fetch(`/api/timelines/${timelineId}/export?format=typst&${query}${share}`);
        if (!res.ok)
          throw new Error(((await res.json().catch(() => null)) as { error?: string } | null)?.error ?? "Could not load the book");
        const source = await res.text();
        const { startPreview } = await import("./browser-typeset");
        const worker = preview.current ?? startPreview();
        preview.current = worker;
        const spread = await worker.render(source, font);
        if (stale) return;
        setShown({ left: spread.left ? toImage(spread.left) : null, right: toImage(spread.right) });
        setError(null);
      } catch (e) {
        if (!stale) setError(e instanceof Error ? e.message : "Could not typeset the preview");
      } finally {
        if (!stale) setBusy(false);
      }
    }, SETTLE_MS);
    return () => {
      stale = true;
      clearTimeout(timer);
    };
  }, [timelineId, shareCode, query, font]);

  let caption = "Two facing pages as they will print.";
  if (error) caption = `Could not preview the spread: ${error}`;
  else if (busy) caption = shown ? "Updating the preview…" : "Typesetting the preview…";
  return (
    <figure aria-label="Spread preview" aria-busy={busy} className="rounded-md bg-stone-100 p-3">
      <div className={`flex min-h-80 justify-center ${busy && shown ? "opacity-60" : ""}`}>
        {shown ? (
          <>
            <Sheet page={shown.left} side="Left" fallback={shown.right} />
            <Sheet page={shown.right} side="Right" fallback={shown.right} />
          </>
        ) : null}
      </div>
      <figcaption className="mt-2 text-center text-xs text-stone-600">{caption}</figcaption>
    </figure>
  );
}
