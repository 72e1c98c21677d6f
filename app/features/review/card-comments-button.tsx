import { MessageSquare } from "lucide-react";
import { useEffect, useRef } from "react";
import { Button } from "~/ui/button";
import type { EventView } from "../../../worker/services/events";
import { useCommentCount } from "./comment-queries";
import { openScene, sceneTextChanged } from "./review-store";

/** A card's comments button: '💬 3' while it has open threads, else a quiet icon; it opens the scene's comments. */
export function CardReview({ event }: { event: EventView }) {
  // With the server's HTML (a count once the counts came): showing it only once the review's tools had mounted
  // re-rendered every card inside hydration's effects.
  const open = useCommentCount(event.timelineId, event.id);
  // The card shows the scene's live text (the room's relay, saves): its open read view follows it.
  const text = useRef(`${event.title}\n${event.content}`);
  useEffect(() => {
    const now = `${event.title}\n${event.content}`;
    if (now === text.current) return;
    text.current = now;
    sceneTextChanged(event.id);
  }, [event.id, event.title, event.content]);
  const label = open > 0 ? `${open} open ${open === 1 ? "comment" : "comments"}` : `Comments on ${event.title}`;
  return (
    <Button
      size={open > 0 ? "sm" : "icon"}
      variant="ghost"
      className={open > 0 ? "h-9 px-2 text-amber-900" : undefined}
      aria-label={label}
      title={open > 0 ? label : "Comments"}
      data-testid="comment-count"
      onClick={() => openScene({ id: event.id, title: event.title })}
    >
      {open > 0 ? <span aria-hidden="true">💬 {open}</span> : <MessageSquare aria-hidden="true" className="h-4 w-4" />}
    </Button>
  );
}
