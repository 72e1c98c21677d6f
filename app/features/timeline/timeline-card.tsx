import { Pencil, Share2, Sparkles, Trash2, Users } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { OnlineOnlyLink, type useOfflineLock } from "~/features/offline/offline-lock";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { cn } from "~/lib/cn";
import { bookPath } from "../../../db/domain/book-path";
import type { TimelineView } from "../../../worker/services/timelines";

export function formatDate(iso: string) {
  return new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
}

export function TimelineCard({
  timeline,
  premium,
  selected,
  onEdit,
  onDelete,
  lock,
}: {
  timeline: TimelineView;
  premium: boolean;
  selected: boolean;
  onEdit: () => void;
  onDelete: () => void;
  /** The page's offline lock for Edit and Delete (not queued with no network). */
  lock?: ReturnType<typeof useOfflineLock>["lock"];
}) {
  const navigate = useNavigate();
  // A viewer opens the book to read it (the Manuscript); the timeline is one click from there.
  const href = bookPath(timeline.id, timeline.accessLevel);
  const stop = (fn: () => void) => (e: React.MouseEvent) => {
    e.stopPropagation();
    fn();
  };
  return (
    <Card
      className={cn("flex cursor-pointer flex-col transition-shadow hover:shadow-md", selected && "ring-2 ring-brand-500")}
      onClick={() => navigate(href)}
      data-testid="timeline-card"
    >
      <div className="flex-1 space-y-2 p-5">
        <div className="flex items-start justify-between gap-2">
          <h3 dir="auto" className="font-serif text-lg leading-snug font-semibold break-words">
            <Link to={href} onClick={(e) => e.stopPropagation()} className="hover:underline">
              {timeline.title}
            </Link>
          </h3>
          {timeline.isShared ? (
            <Badge variant="default" className="shrink-0 gap-1">
              <Users aria-hidden="true" className="h-3 w-3" />
              Shared
            </Badge>
          ) : null}
        </div>
        {timeline.description ? <p className="line-clamp-3 text-sm text-stone-700">{timeline.description}</p> : null}
        <p className="text-xs text-stone-600">Created {formatDate(timeline.createdAt)}</p>
        {timeline.isShared ? (
          <div className="flex flex-wrap gap-1.5 text-xs">
            <Badge variant="secondary">{timeline.isOwner ? "Shared by you" : "Shared with you"}</Badge>
            {!timeline.isOwner ? (
              <Badge variant="outline">{timeline.accessLevel === "collaborator" ? "You can edit" : "View only"}</Badge>
            ) : null}
          </div>
        ) : null}
      </div>
      {timeline.isOwner ? (
        <div className="flex flex-wrap gap-2 border-t border-stone-100 px-5 py-3">
          <Button size="sm" variant="outline" onClick={stop(onEdit)} aria-label={`Edit ${timeline.title}`} {...lock}>
            <Pencil aria-hidden="true" className="h-3.5 w-3.5" /> Edit
          </Button>
          {premium ? (
            <OnlineOnlyLink
              to={`/timeline/${timeline.id}/share`}
              size="sm"
              variant="outline"
              noteClassName="self-center"
              onClick={(e) => e.stopPropagation()}
              aria-label={`Share ${timeline.title}`}
            >
              <Share2 aria-hidden="true" className="h-3.5 w-3.5" /> Share
            </OnlineOnlyLink>
          ) : (
            <OnlineOnlyLink to="/upgrade" size="sm" variant="outline" noteClassName="self-center" onClick={(e) => e.stopPropagation()}>
              <Sparkles aria-hidden="true" className="h-3.5 w-3.5" /> Upgrade to Share
            </OnlineOnlyLink>
          )}
          <Button
            size="sm"
            variant="ghost"
            className="ml-auto text-red-700 hover:bg-red-50"
            onClick={stop(onDelete)}
            aria-label={`Delete ${timeline.title}`}
            {...lock}
          >
            <Trash2 aria-hidden="true" className="h-3.5 w-3.5" /> Delete
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
