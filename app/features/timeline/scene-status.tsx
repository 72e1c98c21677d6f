import { cn } from "~/lib/cn";
import { type SceneStatus, isSceneStatus, sceneStatuses } from "../../../db/domain/task-rules";

// A scene's status (DESIGN.md §12): a select in the scene editor and a small badge on cards and in the Grid.

const tone: Record<SceneStatus, string> = {
  Idea: "bg-stone-100 text-stone-800",
  Outline: "bg-sky-100 text-sky-900",
  Draft: "bg-amber-100 text-amber-900",
  Revised: "bg-violet-100 text-violet-900",
  Done: "bg-emerald-100 text-emerald-900",
};

/** The status as a small badge; nothing when the scene has none. */
export function SceneStatusBadge({ status, className }: { status: string | null | undefined; className?: string }) {
  if (!isSceneStatus(status)) return null;
  return (
    <span
      data-testid="scene-status-badge"
      className={cn("inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium", tone[status], className)}
    >
      {status}
    </span>
  );
}

/** The scene editor's status select; '' is no status. */
export function SceneStatusSelect({
  idPrefix,
  value,
  onChange,
}: {
  idPrefix: string;
  value: SceneStatus | null;
  onChange: (status: SceneStatus | null) => void;
}) {
  const id = `${idPrefix}-status`;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        Status
      </label>
      <select
        id={id}
        value={value ?? ""}
        onChange={(e) => onChange(isSceneStatus(e.target.value) ? e.target.value : null)}
        className="h-9 rounded-md border border-stone-300 bg-white px-2 text-sm"
      >
        <option value="">No status</option>
        {sceneStatuses.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
    </div>
  );
}
