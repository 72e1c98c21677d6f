import { useEffect, useId, useState } from "react";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { client, errorMessage, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";

/** The owner's switch: viewers (beta readers) may comment on the scenes, or only read. */
export function ViewerComments({ timelineId }: { timelineId: number }) {
  const id = useId();
  const param = { id: String(timelineId) };
  const [allowed, setAllowed] = useState<boolean | null>(null);
  const offline = useOfflineLock();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `param` is derived from timelineId.
  useEffect(() => {
    let live = true;
    unwrap(client.api.timelines[":id"].$get({ param, query: {} }))
      .then((t) => live && setAllowed(t.viewersCanComment))
      .catch(() => live && setAllowed(null));
    return () => {
      live = false;
    };
  }, [timelineId]);
  if (allowed === null) return null;

  async function change(next: boolean) {
    setAllowed(next);
    try {
      await unwrap(client.api.timelines[":id"].$patch({ param, json: { viewersCanComment: next } }));
    } catch (error) {
      setAllowed(!next);
      errorToast(errorMessage(error, "Could not change who can comment"));
    }
  }
  return (
    <div className="mt-4 flex items-center gap-2 border-t border-stone-200 pt-3 text-sm">
      <input
        id={id}
        type="checkbox"
        className="h-4 w-4"
        checked={allowed}
        onChange={(e) => void change(e.target.checked)}
        {...offline.lock}
      />
      <label htmlFor={id}>Viewers can comment</label>
      {offline.note}
    </div>
  );
}
