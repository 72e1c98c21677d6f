import { ArrowLeft, Printer } from "lucide-react";
import { Link, data } from "react-router";
import { codexLines, formatStoryTime } from "../../../db/domain/timeline-transfer";
import { localeOf } from "../../../db/domain/calendar/locale";
import { datesInWords } from "../../../db/domain/transfer/document";
import { exportTimeline } from "../../../worker/services/transfer";
import { bookByline } from "../../../worker/services/manuscript";
import { ExportMenu } from "~/features/transfer/export-menu";
import { Button } from "~/ui/button";
import { LazyFormattedText } from "~/ui/lazy-formatted-text";
import { rethrowAsNotFound } from "~/lib/not-found.server";
import { app, requireUser } from "~/lib/session.server";
import { TimelineNotFoundBoundary } from "~/ui/timeline-not-found-boundary";
import type { Route } from "./+types/print";

export const meta = ({ loaderData }: Route.MetaArgs) => [
  { title: `${loaderData?.doc.timeline.title ?? "Timeline not found"} · Print · StoryWeave` },
];

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const id = /^\d{1,12}$/.test(params.id) ? Number(params.id) : 0;
  if (!id) throw data("Timeline not found", { status: 404 });
  const shareCode = new URL(request.url).searchParams.get("share");
  // The same document the exports are made from: same access rules (share links too), same story order.
  const locale = localeOf(request.headers.get("Accept-Language"));
  const doc = datesInWords(await exportTimeline(app(context).db, user, id, shareCode).catch(rethrowAsNotFound), locale);
  // After the export's access check: the title page's byline (DESIGN §12).
  const byline = await bookByline(app(context).db, id);
  return { doc, byline, timelineId: id, shareCode };
}

// The page prints alone: everything outside it (navigation, banners, help, toasts) is left off
// paper, each event starts a block that is not split when it fits on a page, and a heading is never
// the last line of a page.
const printStyles = `
@media print {
  @page { margin: 2cm; }
  html, body { background: white !important; }
  body > *:not(#print-view) { display: none !important; }
  #print-view { max-width: none; padding: 0; }
  #print-view article { break-inside: avoid-page; }
  #print-view h2 { break-after: avoid-page; }
  #print-view .print-title { break-after: page; }
  #print-view a { color: inherit; text-decoration: none; }
}`;

export default function PrintTimeline({ loaderData }: Route.ComponentProps) {
  const { doc, byline, timelineId, shareCode } = loaderData;
  const back = shareCode ? `/timeline/shared/${encodeURIComponent(shareCode)}` : `/timeline/${timelineId}`;
  return (
    <main id="print-view" className="mx-auto w-full max-w-3xl px-4 pt-6 pb-24 font-serif text-ink">
      <style>{printStyles}</style>
      <div className="mb-8 flex flex-wrap items-center justify-between gap-2 font-sans print:hidden">
        <Button asChild variant="ghost">
          <Link to={back}>
            <ArrowLeft aria-hidden="true" className="h-4 w-4" /> Back to timeline
          </Link>
        </Button>
        <div className="flex items-center gap-2">
          <ExportMenu timelineId={timelineId} shareCode={shareCode} print={false} />
          <Button onClick={() => window.print()}>
            <Printer aria-hidden="true" className="h-4 w-4" /> Print / Save as PDF
          </Button>
        </div>
      </div>

      <header className="print-title mb-10 border-b border-stone-300 pb-6 text-center">
        <h1 dir="auto" className="text-4xl font-bold">
          {doc.timeline.title}
        </h1>
        <p dir="auto" className="mt-2 text-lg" data-testid="print-byline">
          by {byline}
        </p>
        {doc.timeline.description ? (
          <p className="mt-3 whitespace-pre-wrap text-lg text-stone-700 italic">{doc.timeline.description}</p>
        ) : null}
        <p className="mt-4 font-sans text-sm text-stone-600">{doc.events.length === 1 ? "1 event" : `${doc.events.length} events`}</p>
      </header>

      {doc.events.length === 0 ? <p className="text-stone-600">No events yet.</p> : null}
      {doc.events.map((event, i) => (
        <article key={i} aria-labelledby={`print-event-${i}`} className="mb-8">
          <h2 id={`print-event-${i}`} dir="auto" className="text-2xl font-bold">
            {event.title}
          </h2>
          <dl className="mt-1 font-sans text-sm text-stone-700">
            {formatStoryTime(event) ? (
              <div className="flex gap-1">
                <dt className="font-semibold">Story time:</dt>
                <dd>{formatStoryTime(event)}</dd>
              </div>
            ) : null}
            {codexLines(event, doc.entities).map(([label, names]) => (
              <div key={label} className="flex gap-1">
                <dt className="font-semibold">{label}:</dt>
                <dd>{names}</dd>
              </div>
            ))}
          </dl>
          {event.content ? (
            <LazyFormattedText
              id={`print-event-${i}-text`}
              text={event.content}
              headingLevel={3}
              className="mt-3 text-lg leading-relaxed"
            />
          ) : null}
        </article>
      ))}
    </main>
  );
}

export function ErrorBoundary() {
  return <TimelineNotFoundBoundary />;
}
