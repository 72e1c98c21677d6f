import { FileText, Paperclip, X } from "lucide-react";
import { type DragEvent, createContext, useContext, useRef, useState } from "react";
import { Button } from "~/ui/button";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";
import { cn } from "~/lib/cn";
import { ATTACHMENT_ACCEPT, formatBytes, isImageType } from "../../../db/domain/rules";
import type { AttachmentView } from "../../../worker/services/attachment-store";
import type { EventView } from "../../../worker/services/events";

// Attachments on a card: thumbnails and download links for everyone who reads the
// timeline; 'Attach file', drag-and-drop onto the card and 'Remove <filename>' for editors. Light on
// purpose (cards are windowed): no work per card until a file is attached or dropped.

/** What the timeline screen gives its cards: the share code, the room headers and a way to update an event. */
export type AttachmentsApi = {
  shareCode?: string | null;
  roomHeaders: Record<string, string>;
  onChange: (eventId: number, update: (list: AttachmentView[]) => AttachmentView[]) => void;
  /** The screen's own list of the timeline's events, as it is now (the edit form's 'After' picks from it). */
  readonly scenes?: EventView[];
};

export const AttachmentsContext = createContext<AttachmentsApi | null>(null);

const query = (shareCode?: string | null) => (shareCode ? `?${new URLSearchParams({ share: shareCode })}` : "");

/** The download (and thumbnail) URL of an attachment. */
export const attachmentUrl = (id: number, shareCode?: string | null) => `/api/attachments/${id}${query(shareCode)}`;

type Upload = { name: string; percent: number };

/** Sends one file with upload progress (fetch has none); resolves with the server's JSON or its error message. */
function send(url: string, file: File, headers: Record<string, string>, onProgress: (percent: number) => void) {
  return new Promise<AttachmentView>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: { error?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status === 201 && body) resolve(body as AttachmentView);
      else reject(new Error(body?.error ?? "Failed to upload file"));
    };
    xhr.onerror = () => reject(new Error("Failed to upload file"));
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
}

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
        const url = `/api/events/${event.id}/attachments${query(api.shareCode)}`;
        const added = await send(url, file, api.roomHeaders, (percent) => setCurrent({ name: file.name, percent }));
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

/** The card's attachments: thumbnails, download links, remove buttons, 'Attach file' and the progress bar. */
export function EventAttachments({ event, canEdit, uploads }: { event: EventView; canEdit: boolean; uploads: AttachmentUpload }) {
  const api = useContext(AttachmentsContext);
  const [removing, setRemoving] = useState<number | null>(null);
  const list = event.attachments;
  const editable = canEdit && uploads.enabled;
  if (list.length === 0 && !uploads.current) return null;

  async function remove(attachment: AttachmentView) {
    if (!api) return;
    setRemoving(attachment.id);
    try {
      await unwrap(
        client.api.attachments[":id"].$delete(
          { param: { id: String(attachment.id) }, query: shareParam(api.shareCode) },
          { headers: api.roomHeaders },
        ),
      );
      api.onChange(event.id, (items) => items.filter((a) => a.id !== attachment.id));
    } catch (error) {
      errorToast(errorMessage(error, "Failed to remove file"));
    } finally {
      setRemoving(null);
    }
  }

  const images = list.filter((a) => isImageType(a.contentType));
  const others = list.filter((a) => !isImageType(a.contentType));
  const shareCode = api?.shareCode;
  return (
    <div className="mt-2 space-y-2" data-testid="event-attachments">
      {images.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={`Images of ${event.title}`}>
          {images.map((a) => (
            <li key={a.id} className="relative">
              <a
                href={attachmentUrl(a.id, shareCode)}
                target="_blank"
                rel="noopener"
                aria-label={`Open ${a.filename} full size`}
                className="block overflow-hidden rounded border border-stone-200 hover:border-brand-500"
              >
                <img
                  src={attachmentUrl(a.id, shareCode)}
                  alt={a.filename}
                  loading="lazy"
                  decoding="async"
                  width={64}
                  height={64}
                  className="h-16 w-16 object-cover"
                />
              </a>
              {editable ? (
                <RemoveButton
                  attachment={a}
                  onRemove={remove}
                  busy={removing === a.id}
                  className="absolute -top-1.5 -right-1.5 rounded-full border border-stone-300 bg-white p-0.5 text-stone-700 shadow"
                  iconClassName="h-3 w-3"
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {others.length > 0 ? (
        <ul className="space-y-1" aria-label={`Files of ${event.title}`}>
          {others.map((a) => (
            <li key={a.id} className="flex items-center gap-1.5 text-sm">
              <FileText aria-hidden="true" className="h-4 w-4 shrink-0 text-stone-500" />
              <a href={attachmentUrl(a.id, shareCode)} download={a.filename} className="min-w-0 truncate text-brand-700 hover:underline">
                {a.filename}
              </a>
              <span className="shrink-0 text-xs text-stone-600">({formatBytes(a.size)})</span>
              {editable ? (
                <RemoveButton
                  attachment={a}
                  onRemove={remove}
                  busy={removing === a.id}
                  className="rounded p-0.5 text-stone-600"
                  iconClassName="h-3.5 w-3.5"
                />
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {uploads.current ? (
        <div className="space-y-1">
          <p className="truncate text-xs text-stone-600">Uploading {uploads.current.name}…</p>
          <div
            role="progressbar"
            aria-label={`Uploading ${uploads.current.name}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={uploads.current.percent}
            className="h-1.5 overflow-hidden rounded bg-stone-200"
          >
            <div className="h-full bg-brand-600 transition-[width]" style={{ width: `${uploads.current.percent}%` }} />
          </div>
        </div>
      ) : null}
    </div>
  );
}

type RemoveProps = {
  attachment: AttachmentView;
  onRemove: (attachment: AttachmentView) => Promise<unknown> | unknown;
  busy: boolean;
  className: string;
  iconClassName: string;
};

function RemoveButton({ attachment, onRemove, busy, className, iconClassName }: RemoveProps) {
  return (
    <button
      type="button"
      onClick={() => void onRemove(attachment)}
      disabled={busy}
      aria-label={`Remove ${attachment.filename}`}
      title={`Remove ${attachment.filename}`}
      className={cn(className, "hover:bg-red-50 hover:text-red-700")}
    >
      <X aria-hidden="true" className={iconClassName} />
    </button>
  );
}
