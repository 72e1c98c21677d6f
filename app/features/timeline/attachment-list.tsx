import { FileText, X } from "lucide-react";
import { useContext, useState } from "react";
import { errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import { cn } from "~/lib/cn";
import { formatBytes, isImageType } from "../../../db/domain/rules";
import type { AttachmentView } from "../../../worker/services/attachment-store";
import type { EventView } from "../../../worker/services/events";
import { AttachmentsContext, attachmentUrl } from "~/features/timeline/attachments-context";

// A card's attachment list, loaded only for cards that have files (or one uploading).

/** What the list needs of the card's uploads (`useAttachmentUpload`). */
type ListUploads = { current: { name: string; percent: number } | null; enabled: boolean };

/** The card's attachments: thumbnails, download links, remove buttons, 'Attach file' and the progress bar. */
export function AttachmentList({ event, canEdit, uploads }: { event: EventView; canEdit: boolean; uploads: ListUploads }) {
  const api = useContext(AttachmentsContext);
  const [removing, setRemoving] = useState<number | null>(null);
  const list = event.attachments;
  const editable = canEdit && uploads.enabled;

  async function remove(attachment: AttachmentView) {
    if (!api) return;
    setRemoving(attachment.id);
    try {
      await unwrap(api.client.api.attachments[":id"].$delete({ param: { id: String(attachment.id) }, query: shareParam(api.shareCode) }));
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
