import { Paperclip } from "lucide-react";
import { type DragEvent, Suspense, lazy, useContext, useRef, useState } from "react";
import { AttachmentsContext } from "~/features/timeline/attachments-context";
import { Button } from "~/ui/button";
import { errorToast, showToast } from "~/lib/toast";
import { ATTACHMENT_ACCEPT } from "../../../db/domain/rules";
import type { EventView } from "../../../worker/services/events";

// Attachments on a card: thumbnails and download links for everyone who reads the
// timeline; 'Attach file', drag-and-drop onto the card and 'Remove <filename>' for editors. Light on
// purpose (cards are windowed and this is in first paint): the list and the upload load on use.

export { AttachmentsContext, attachmentUrl, type AttachmentsApi } from "~/features/timeline/attachments-context";

type Upload = { name: string; percent: number };

/**
 * A card's uploads: `upload(files)` sends them one by one with progress, and `dropProps` make the
 * whole card a drop target (highlighted while files are dragged over it) for editors.
 */
export function useAttachmentUpload(event: Pick<EventView, "id">, canEdit: boolean) {
  const api = useContext(AttachmentsContext);
  const [current, setCurrent] = useState<Upload | null>(null);
  const [dropActive, setDropActive] = useState(false);
  const depth = useRef(0);
  const enabled = canEdit && api !== null;

  async function upload(files: File[]) {
    if (!api || files.length === 0) return;
    for (const file of files) {
      setCurrent({ name: file.name, percent: 0 });
      try {
        const { send } = await import("~/features/timeline/attachment-upload");
        const added = await send(api.client, event.id, api.shareCode, file, (percent) => setCurrent({ name: file.name, percent }));
        api.onChange(event.id, (list) => [...list, added]);
        showToast({ title: "Success", description: `Attached ${added.filename}` });
      } catch (error) {
        errorToast(error instanceof Error ? error.message : "Failed to upload file");
      }
    }
    setCurrent(null);
  }

  const hasFiles = (e: DragEvent) => e.dataTransfer.types.includes("Files");
  const dropProps = enabled
    ? {
        onDragEnter: (e: DragEvent) => {
          if (!hasFiles(e)) return;
          e.preventDefault();
          depth.current += 1;
          setDropActive(true);
        },
        onDragOver: (e: DragEvent) => {
          if (!hasFiles(e)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = "copy";
        },
        onDragLeave: (e: DragEvent) => {
          if (!hasFiles(e)) return;
          depth.current = Math.max(0, depth.current - 1);
          if (depth.current === 0) setDropActive(false);
        },
        onDrop: (e: DragEvent) => {
          if (!hasFiles(e)) return;
          e.preventDefault();
          depth.current = 0;
          setDropActive(false);
          void upload([...e.dataTransfer.files]);
        },
      }
    : {};

  return { upload, current, dropActive, dropProps, enabled };
}

/** 'Attach file' among the card's action icons (editors), with its hidden file input. */
export function AttachFileButton({ event, uploads }: { event: Pick<EventView, "id" | "title">; uploads: AttachmentUpload }) {
  const input = useRef<HTMLInputElement>(null);
  if (!uploads.enabled) return null;
  return (
    <>
      <Button
        size="icon"
        variant="ghost"
        onClick={() => input.current?.click()}
        disabled={uploads.current !== null}
        aria-label="Attach file"
        title="Attach file"
      >
        <Paperclip aria-hidden="true" className="h-4 w-4" />
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        accept={ATTACHMENT_ACCEPT}
        className="hidden"
        aria-label={`Attach a file to ${event.title}`}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = "";
          void uploads.upload(files);
        }}
      />
    </>
  );
}

export type AttachmentUpload = ReturnType<typeof useAttachmentUpload>;

const AttachmentList = lazy(() => import("~/features/timeline/attachment-list").then((m) => ({ default: m.AttachmentList })));

/** The card's attachments: thumbnails, download links, remove buttons and the progress bar (a lazy chunk). */
export function EventAttachments(props: { event: EventView; canEdit: boolean; uploads: AttachmentUpload }) {
  if (props.event.attachments.length === 0 && !props.uploads.current) return null;
  return (
    <Suspense fallback={null}>
      <AttachmentList {...props} />
    </Suspense>
  );
}
