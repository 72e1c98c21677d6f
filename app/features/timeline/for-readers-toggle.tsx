import { useEffect, useState } from "react";
import { errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import { useOptionalTimelineSession } from "~/features/timeline/timeline-session";

// 'Not for readers' (DESIGN §12 'Readers'): a scene left out of reader links' reading view. Saved at once, on its
// own (`PATCH /api/events/{id} {forReaders}`), apart from the editor's Save.

/** The scene's `forReaders` as this page last knew it: the server's, or the writer's change since. */
export function useForReaders(event: { forReaders?: boolean }) {
  const [value, setValue] = useState(event.forReaders !== false);
  useEffect(() => setValue(event.forReaders !== false), [event.forReaders]);
  return [value, setValue] as const;
}

export function ForReadersToggle({
  eventId,
  idPrefix,
  forReaders,
  onChange,
}: {
  eventId: number;
  idPrefix: string;
  forReaders: boolean;
  onChange: (forReaders: boolean) => void;
}) {
  const session = useOptionalTimelineSession();
  const [busy, setBusy] = useState(false);
  if (!session?.canEdit) return null;
  const toggle = async (notForReaders: boolean) => {
    setBusy(true);
    onChange(!notForReaders);
    try {
      await unwrap(
        session.client.api.events[":id"].$patch({
          param: { id: String(eventId) },
          query: shareParam(session.shareCode),
          // The reader route takes `{forReaders}` alone before the events route's own schema.
          json: { forReaders: !notForReaders } as never,
        }),
      );
    } catch (error) {
      onChange(notForReaders);
      errorToast(errorMessage(error, "Could not change 'Not for readers'."));
    } finally {
      setBusy(false);
    }
  };
  return (
    <label htmlFor={`${idPrefix}-not-for-readers`} className="flex items-center gap-2 text-sm">
      <input
        id={`${idPrefix}-not-for-readers`}
        type="checkbox"
        checked={!forReaders}
        disabled={busy}
        onChange={(e) => void toggle(e.target.checked)}
      />
      Not for readers
    </label>
  );
}
