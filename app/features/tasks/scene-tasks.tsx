import { Trash2 } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { TASKS_CHANGED } from "~/features/tasks/tasks-changed";
import { useOptionalTimelineSession } from "~/features/timeline/timeline-session";
import { client as plainClient, errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { taskLimits } from "../../../db/domain/task-rules";
import type { Assignee, TaskView } from "../../../worker/services/tasks";

const FAILED = "Could not change the tasks.";

/**
 * The scene editor's tasks (DESIGN.md §12): add, tick done, assign to someone who can edit, delete. Opening it is
 * one request (`GET /api/events/{id}/task-panel`: the tasks and the possible assignees); a co-writer's change
 * arrives through the room (`sync` scope "tasks") and is fetched again.
 */
export function SceneTasks({ eventId, idPrefix }: { eventId: number; idPrefix: string }) {
  const session = useOptionalTimelineSession();
  const client = session?.client ?? plainClient;
  const query = shareParam(session?.shareCode);
  const share = session?.shareCode;
  const [tasks, setTasks] = useState<TaskView[]>([]);
  const [people, setPeople] = useState<Assignee[]>([]);
  const [text, setText] = useState("");
  const [assigneeId, setAssigneeId] = useState("");

  const load = useCallback(
    (isCurrent: () => boolean) =>
      unwrap(client.api.events[":id"]["task-panel"].$get({ param: { id: String(eventId) }, query: shareParam(share) }))
        .then((panel) => {
          if (!isCurrent()) return;
          setTasks(panel.tasks);
          setPeople(panel.assignees);
        })
        .catch((error) => isCurrent() && errorToast(errorMessage(error, "Could not load the tasks."))),
    [client, eventId, share],
  );
  useEffect(() => {
    let current = true;
    const isCurrent = () => current;
    void load(isCurrent);
    // Another writer (or this writer's other tab) changed this scene's tasks: fetch them again.
    const onChanged = (e: Event) => {
      if ((e as CustomEvent<number>).detail === eventId) void load(isCurrent);
    };
    window.addEventListener(TASKS_CHANGED, onChanged);
    return () => {
      current = false;
      window.removeEventListener(TASKS_CHANGED, onChanged);
    };
  }, [load, eventId]);

  const replace = (task: TaskView) => setTasks((list) => list.map((t) => (t.id === task.id ? task : t)));
  // Shown at once (the box ticks as it is clicked), then the server's answer; put back if it refuses.
  const change = (id: number, json: { done?: boolean; assigneeId?: number | null }) => {
    const before = tasks.find((t) => t.id === id);
    setTasks((list) => list.map((t) => (t.id === id ? { ...t, ...json } : t)));
    return unwrap(client.api.tasks[":id"].$patch({ param: { id: String(id) }, query, json }))
      .then(replace)
      .catch((error) => {
        if (before) replace(before);
        errorToast(errorMessage(error, FAILED));
      });
  };
  const remove = (id: number) =>
    unwrap(client.api.tasks[":id"].$delete({ param: { id: String(id) }, query }))
      .then(() => setTasks((list) => list.filter((x) => x.id !== id)))
      .catch((error) => errorToast(errorMessage(error, FAILED)));

  // Not a <form>: the tasks sit inside the scene editor, which may be one.
  async function add() {
    if (!text.trim()) return;
    try {
      const task = await unwrap(
        client.api.events[":id"].tasks.$post({
          param: { id: String(eventId) },
          query,
          json: { text, ...(assigneeId && { assigneeId: Number(assigneeId) }) },
        }),
      );
      setTasks((list) => (list.some((t) => t.id === task.id) ? list : [...list, task]));
      setText("");
      setAssigneeId("");
    } catch (error) {
      errorToast(errorMessage(error, FAILED));
    }
  }

  const select = "h-8 max-w-full min-w-0 rounded-md border border-stone-300 bg-white px-1 text-sm";
  return (
    <fieldset className="min-w-0 space-y-2" data-testid="scene-tasks">
      <legend className="text-sm font-medium text-stone-800">Tasks</legend>
      <ul className="space-y-1">
        {tasks.map((t) => (
          <li key={t.id} className="flex flex-wrap items-center gap-2 text-sm" data-testid="scene-task">
            <input
              type="checkbox"
              id={`${idPrefix}-task-${t.id}`}
              checked={t.done}
              onChange={(e) => void change(t.id, { done: e.target.checked })}
            />
            <label htmlFor={`${idPrefix}-task-${t.id}`} className={`min-w-0 break-words ${t.done ? "text-stone-500 line-through" : ""}`}>
              {t.text}
            </label>
            <select
              aria-label={`Assignee of ${t.text}`}
              className={select}
              value={t.assigneeId ?? ""}
              onChange={(e) => void change(t.id, { assigneeId: e.target.value ? Number(e.target.value) : null })}
            >
              <option value="">Nobody</option>
              {people.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              aria-label={`Delete task ${t.text}`}
              className="rounded p-1 text-stone-500 hover:bg-stone-100 hover:text-red-700"
              onClick={() => void remove(t.id)}
            >
              <Trash2 className="size-4" aria-hidden />
            </button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center gap-2">
        <input
          aria-label="New task"
          placeholder="Add a task"
          value={text}
          maxLength={taskLimits.text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "Enter") return;
            e.preventDefault();
            void add();
          }}
          className="h-8 min-w-0 flex-[1_1_12rem] rounded-md border border-stone-300 px-2 text-sm"
        />
        <select aria-label="Assign the new task to" className={select} value={assigneeId} onChange={(e) => setAssigneeId(e.target.value)}>
          <option value="">Nobody</option>
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <Button type="button" size="sm" variant="outline" onClick={() => void add()}>
          Add task
        </Button>
      </div>
    </fieldset>
  );
}
