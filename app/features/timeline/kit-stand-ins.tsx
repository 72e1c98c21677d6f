import { Button } from "~/ui/button";

/**
 * The kits that load after hydration (chapters and structure, plotlines and the calendar, review) put buttons on
 * the timeline screen. Until a kit is here, the server's HTML and the first render hold a disabled stand-in of each
 * button: the same size, label and icon (a CSS mask, app.css), so nothing moves when the kit's own replaces it.
 */
export function StandIn({ icon, ghost, big, children }: { icon: string; ghost?: boolean; big?: boolean; children: string }) {
  return (
    <Button variant={ghost ? "ghost" : "outline"} size={big ? "default" : "sm"} disabled>
      <span aria-hidden="true" className={`icon icon-${icon}`} />
      {children}
    </Button>
  );
}

const wordsText = (n: number) => `${n.toLocaleString("en-US")} ${n === 1 ? "word" : "words"}`;

/** The book's words under the title, as the chapters kit's BookProgress shows them, with its buttons. */
export function ProgressStandIn({ words, target, canEdit }: { words: number; target: number | null; canEdit: boolean }) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-stone-700">
      {target ? (
        <>
          <span>
            {words.toLocaleString("en-US")} of {wordsText(target)}
          </span>
          <span className="h-2 w-40 rounded-full bg-stone-200" />
        </>
      ) : (
        <span>{wordsText(words)}</span>
      )}
      {canEdit ? (
        <StandIn icon="target" ghost>
          {target ? "Change target" : "Set target"}
        </StandIn>
      ) : null}
      <StandIn icon="bar-chart" ghost>
        Progress
      </StandIn>
    </div>
  );
}
