import { useEffect, useState } from "react";
import { client, errorMessage, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import type { DayWords, Progress } from "../../../worker/services/progress";
import type { ChapterContext } from "./chapter-context";
import { dailyGoalMessage, parseTarget, queryOf, wordsText } from "./chapters-api";

const dayLabel = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

type Schedule = { deadline: string | null; writingDays: number[] };

/**
 * The owner's deadline and writing days (DESIGN §12): the quota is the words still to write over the writing days
 * left. `onSaved` reloads the progress so 'Today: … of … words' follows.
 */
function DeadlineForm({
  context,
  timelineId,
  schedule,
  onSaved,
}: {
  context: ChapterContext;
  timelineId: number;
  schedule: Schedule;
  onSaved: () => void;
}) {
  const [deadline, setDeadline] = useState(schedule.deadline ?? "");
  const [days, setDays] = useState(new Set(schedule.writingDays));
  const [error, setError] = useState<string | null>(null);
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const writingDays = [...days].sort((a, b) => a - b);
      await unwrap(
        context.api.client.api.timelines[":id"].$patch({
          param: { id: String(timelineId) },
          json: { deadline: deadline || null, writingDays },
        }),
      );
      schedule.deadline = deadline || null;
      schedule.writingDays = writingDays;
      showToast({ title: "Success", description: deadline ? "Deadline saved" : "Deadline removed" });
      onSaved();
    } catch (err) {
      setError(errorMessage(err, "Failed to save the deadline"));
    }
  };
  return (
    <form onSubmit={(e) => void save(e)} className="space-y-2 rounded-md border border-stone-200 p-3 text-sm" aria-label="Deadline">
      <div className="flex flex-wrap items-end gap-2">
        <label className="flex flex-col gap-1">
          <span className="font-medium">Deadline</span>
          <input
            type="date"
            value={deadline}
            onChange={(e) => setDeadline(e.target.value)}
            className="h-8 rounded-md border border-stone-300 bg-white px-2"
          />
        </label>
        <OnlineOnlyButton type="submit" size="sm">
          Save deadline
        </OnlineOnlyButton>
      </div>
      <fieldset className="flex flex-wrap gap-x-3 gap-y-1">
        <legend className="mb-1 font-medium">Writing days</legend>
        {WEEKDAYS.map((name, i) => (
          <label key={name} className="flex items-center gap-1">
            <input
              type="checkbox"
              checked={days.has(i + 1)}
              onChange={(e) =>
                setDays((d) => {
                  const next = new Set(d);
                  if (e.target.checked) next.add(i + 1);
                  else next.delete(i + 1);
                  return next;
                })
              }
            />
            {name.slice(0, 3)}
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}

/** 'Words written' per day for the last 30 days (per writer on request), the daily goal and the streak. */
export function ProgressPanel({
  context,
  timelineId,
  schedule,
}: {
  context: ChapterContext;
  timelineId: number;
  /** The owner's deadline and writing days, to change them here (null: not the owner). */
  schedule?: Schedule | null;
}) {
  const [reload, setReload] = useState(0);
  const [byWriter, setByWriter] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [failed, setFailed] = useState(false);
  const [goal, setGoal] = useState("");
  const [goalError, setGoalError] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` (a saved deadline) is the signal to fetch again
  useEffect(() => {
    let live = true;
    setFailed(false);
    // Days start at the writer's own midnight.
    const tz = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    const query = { ...queryOf(context.api), tz, ...(byWriter && { by: "writer" }) };
    unwrap(context.api.client.api.timelines[":id"].progress.$get({ param: { id: String(timelineId) }, query }))
      .then((p) => {
        if (!live) return;
        setProgress(p);
        setGoal((g) => g || (p.dailyGoal ? String(p.dailyGoal) : ""));
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [context.api, timelineId, byWriter, reload]);

  const saveGoal = async () => {
    const parsed = parseTarget(goal, dailyGoalMessage);
    if ("error" in parsed) return setGoalError(parsed.error);
    setGoalError(null);
    try {
      await unwrap(client.api.account.$patch({ json: { dailyGoalWords: parsed.value } }));
      setProgress((p) => (p ? { ...p, dailyGoal: parsed.value } : p));
      showToast({ title: "Success", description: parsed.value ? "Daily goal saved" : "Daily goal removed" });
    } catch (e) {
      errorToast(errorMessage(e, "Failed to save the daily goal"));
    }
  };

  if (failed) return <p className="text-sm text-red-700">Failed to load progress</p>;
  if (!progress) return <p className="text-sm text-stone-600">Loading progress...</p>;
  const writers = byWriter && progress.writers?.length ? progress.writers : null;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-stone-700">
          {wordsText(progress.wordCount)} in the book
          {progress.streak ? <span className="ml-2 font-medium text-brand-700">{progress.streak}-day streak</span> : null}
        </p>
        {progress.dailyQuota != null ? (
          <p className="w-full text-sm font-medium text-stone-800" data-testid="daily-quota">
            Today: {progress.today.words.toLocaleString("en-US")} of {progress.dailyQuota.toLocaleString("en-US")} words
            <span className="ml-2 font-normal text-stone-600">(deadline {progress.deadline})</span>
          </p>
        ) : null}
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={byWriter} onChange={(e) => setByWriter(e.target.checked)} />
          Per writer
        </label>
        {schedule ? (
          <div className="w-full">
            <DeadlineForm context={context} timelineId={timelineId} schedule={schedule} onSaved={() => setReload((n) => n + 1)} />
          </div>
        ) : null}
      </div>
      {writers ? (
        writers.map((w, i) => (
          <WordsChart
            key={w.userId ?? i}
            title={`Words written by ${w.name || "a writer"}`}
            days={w.days}
            goal={progress.dailyGoal ?? null}
          />
        ))
      ) : (
        <WordsChart title="Words written" days={progress.days} goal={progress.dailyGoal ?? null} />
      )}
      <form
        noValidate
        className="flex flex-wrap items-end gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          void saveGoal();
        }}
      >
        <label className="flex flex-col gap-1 text-sm font-medium">
          Daily goal (words)
          <input
            className="h-9 w-32 rounded-md border border-stone-300 bg-white px-2 text-sm"
            inputMode="numeric"
            value={goal}
            aria-invalid={goalError ? true : undefined}
            onChange={(e) => setGoal(e.target.value)}
          />
        </label>
        <OnlineOnlyButton type="submit" size="sm">
          Save goal
        </OnlineOnlyButton>
        {goalError ? <p className="w-full text-sm text-red-700">{goalError}</p> : null}
      </form>
    </div>
  );
}

/** A small bar chart (SVG, hidden from screen readers) with the same numbers as a visually hidden table. */
function WordsChart({ title, days, goal }: { title: string; days: DayWords[]; goal: number | null }) {
  const width = 300;
  const height = 80;
  const max = Math.max(1, goal ?? 0, ...days.map((d) => d.words));
  const step = days.length ? width / days.length : width;
  const y = (words: number) => height - (Math.max(0, words) / max) * height;
  return (
    <figure className="space-y-1">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      {days.every((d) => d.words === 0) ? (
        <p className="text-sm text-stone-600">No words written in the last 30 days yet: the bars fill in as the story grows.</p>
      ) : null}
      <svg viewBox={`0 0 ${width} ${height}`} className="h-24 w-full" aria-hidden="true" preserveAspectRatio="none">
        {days.map((d, i) => (
          <rect
            key={d.date}
            x={i * step + 1}
            width={Math.max(1, step - 2)}
            y={y(d.words)}
            height={height - y(d.words)}
            className="fill-brand-600"
          />
        ))}
        <line x1={0} x2={width} y1={height - 0.5} y2={height - 0.5} className="stroke-stone-300" />
        {goal ? <line x1={0} x2={width} y1={y(goal)} y2={y(goal)} className="stroke-amber-600" strokeDasharray="4 3" /> : null}
      </svg>
      <table className="sr-only">
        <caption>{title}, last 30 days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Words</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <td>{dayLabel(d.date)}</td>
              <td>{d.words.toLocaleString("en-US")}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
