import { Suspense, lazy, useEffect, useState } from "react";
import { Button } from "~/ui/button";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { Dialog } from "~/ui/dialog";
import { Input, Label, Textarea } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { client, shareParam, unwrap } from "~/lib/client";
import { useOptionalTimelineSession } from "~/features/timeline/timeline-session";
import { queueEventCreate, shouldQueue } from "~/features/timeline/event-changes";
import { timelineQueryClient } from "~/features/timeline/timeline-query";
import { loadValidation } from "~/lib/lazy-validation";
import { errorToast, showToast } from "~/lib/toast";
import type { TimelineView } from "../../../worker/services/timelines";

// The template list loads with the dialog's first opening, never with a page.
const StructureSelect = lazy(() => import("~/features/structure/structure-select").then((m) => ({ default: m.StructureSelect })));

type TimelineDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Present when editing. */
  timeline?: (Pick<TimelineView, "id" | "title" | "description"> & { byline?: string | null }) | null;
  onSaved?: (timeline: TimelineView) => void;
};

/** 'Create New Timeline' and 'Edit Timeline' share one form. */
export function TimelineDialog({ open, onOpenChange, timeline, onSaved }: TimelineDialogProps) {
  const editing = Boolean(timeline);
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [byline, setByline] = useState("");
  const [templateId, setTemplateId] = useState("");
  const saveTimeline = useMutation(
    (fields: { title: string; description: string | null; templateId?: string | null }) =>
      timeline
        ? unwrap(
            client.api.timelines[":id"].$patch({
              param: { id: String(timeline.id) },
              json: {
                title: fields.title,
                description: fields.description ?? "",
                // The API shows the owner's name while no byline is set: sent only when changed, so it stays the default.
                ...(byline.trim() !== (timeline.byline ?? "").trim() && { byline: byline.trim() || null }),
              },
            }),
          )
        : unwrap(client.api.timelines.$post({ json: { ...fields, createdAt: new Date().toISOString() } })),
    {
      success: { title: "Success", description: editing ? "Timeline updated successfully" : "Timeline created successfully" },
      error: editing ? "Failed to update timeline" : "Failed to create timeline",
      // A new timeline is selected, which loads it anyway.
      revalidate: editing,
      onSuccess: (saved) => {
        setTitle("");
        setDescription("");
        setTemplateId("");
        onOpenChange(false);
        onSaved?.(saved);
      },
    },
  );
  const pending = saveTimeline.pending;

  useEffect(() => {
    if (open) {
      void loadValidation();
      setTitle(timeline?.title ?? "");
      setDescription(timeline?.description ?? "");
      setByline(timeline?.byline ?? "");
    }
  }, [open, timeline]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const { CreateTimelineSchema, firstIssue, messages } = await loadValidation();
    if (!title.trim()) {
      showToast({ title: "Error", description: messages.timelineTitle, variant: "destructive" });
      return;
    }
    const parsed = CreateTimelineSchema.safeParse({ title, description });
    if (!parsed.success) return errorToast(firstIssue(parsed.error));
    await saveTimeline.run(editing || !templateId ? parsed.data : { ...parsed.data, templateId });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={editing ? "Edit Timeline" : "Create New Timeline"}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="space-y-1.5">
          <Label htmlFor="timeline-title">Title</Label>
          <Input
            id="timeline-title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            maxLength={200}
            placeholder="e.g. The Lighthouse Keeper"
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="timeline-description">Description</Label>
          <Textarea
            id="timeline-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            maxLength={2000}
            placeholder="What is this story about? (optional)"
          />
        </div>
        {editing ? (
          <div className="space-y-1.5">
            <Label htmlFor="timeline-byline">Byline</Label>
            <Input
              id="timeline-byline"
              value={byline}
              onChange={(e) => setByline(e.target.value)}
              maxLength={200}
              placeholder="Your name (the title page and the EPUB name it)"
              aria-describedby="timeline-byline-hint"
            />
            <p id="timeline-byline-hint" className="text-xs text-stone-600">
              The name on the title page, e.g. a pen name or both co-authors. Empty: your account's name.
            </p>
          </div>
        ) : (
          <Suspense fallback={null}>
            <StructureSelect value={templateId} onChange={setTemplateId} />
          </Suspense>
        )}
        <div className="flex justify-end gap-2">
          {editing ? (
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
              Cancel
            </Button>
          ) : null}
          <OnlineOnlyButton type="submit" disabled={pending}>
            {editing ? (pending ? "Saving..." : "Save Changes") : pending ? "Creating..." : "Create Timeline"}
          </OnlineOnlyButton>
        </div>
      </form>
    </Dialog>
  );
}

/** 'Create New Event': home (needs a selected timeline) and detail screens. */
export function EventDialog({
  open,
  onOpenChange,
  timelineId,
  shareCode,
  preset,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  timelineId: number | null;
  /** Added from a cell of the plotline grid: its chapter and plotline. */
  preset?: { chapterId: number | null; plotlineIds: number[]; where: string };
  shareCode?: string | null;
}) {
  // On the timeline screen the session's client names this page's room connection, so its own reload is the only one.
  const session = useOptionalTimelineSession();
  const writer = session?.client ?? client;
  const [title, setTitle] = useState("");
  const [content, setContent] = useState("");
  // On the timeline screen an event made offline is queued (the outbox); elsewhere (the timelines page) it needs the server.
  const Submit = session ? Button : OnlineOnlyButton;
  const createEvent = useMutation(
    (id: number, fields: { title: string; content: string }) =>
      unwrap(
        writer.api.timelines[":id"].events.$post({
          param: { id: String(id) },
          query: shareParam(shareCode),
          json: {
            ...fields,
            timelineId: id,
            attachments: [],
            ...(preset && { chapterId: preset.chapterId, plotlineIds: preset.plotlineIds }),
          },
        }),
      ),
    {
      success: { title: "Success", description: "Event created successfully" },
      error: "Failed to create event",
      onSuccess: () => {
        setTitle("");
        setContent("");
        onOpenChange(false);
      },
    },
  );
  const pending = createEvent.pending;

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const { CreateEventSchema, firstIssue, messages } = await loadValidation();
    if (!timelineId) return errorToast(messages.selectTimeline);
    const parsed = CreateEventSchema.safeParse({ title, content });
    if (!parsed.success) return errorToast(firstIssue(parsed.error));
    // On the timeline screen with no network (or changes waiting before it): into the outbox, shown at once.
    if (session && shouldQueue()) {
      queueEventCreate(timelineQueryClient(), {
        timelineId,
        shareCode,
        title: parsed.data.title,
        content: parsed.data.content,
        ...(preset && { chapterId: preset.chapterId, plotlineIds: preset.plotlineIds }),
      });
      setTitle("");
      setContent("");
      onOpenChange(false);
      return;
    }
    await createEvent.run(timelineId, { title: parsed.data.title, content: parsed.data.content });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create New Event">
      <form onSubmit={submit} noValidate className="space-y-4">
        {preset ? <p className="text-sm text-stone-700">In {preset.where}</p> : null}
        <div className="space-y-1.5">
          <Label htmlFor="event-title">Title</Label>
          <Input
            id="event-title"
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            maxLength={200}
            placeholder="What happens?"
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="event-content">Content</Label>
          <Textarea
            id="event-content"
            value={content}
            onChange={(e) => setContent(e.target.value)}
            required
            placeholder="Describe the event"
          />
        </div>
        <div className="flex justify-end gap-2">
          <Submit type="submit" disabled={pending}>
            {pending ? "Creating..." : "Create Event"}
          </Submit>
        </div>
      </form>
    </Dialog>
  );
}
