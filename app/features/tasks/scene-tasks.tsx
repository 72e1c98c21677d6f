import { Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { errorToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { taskLimits } from "../../../db/domain/task-rules";
import type { TaskView } from "../../../worker/services/tasks";

type Person = { id: number; name: string };

/** The API's answer, or its `error` message thrown. */
async function send<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) {
    const error = await res
      .json()
      .then((j) => (j as { error?: string }).error)
      .catch(() => null);
    throw new Error(error || "Something went wrong");
  }
  return (res.status === 204 ? null : await res.json()) as T;
}

/** The scene editor's tasks (DESIGN.md §12): add, tick done, assign to someone who can edit, delete. */
export function SceneTasks({ eventId, idPrefix }: { eventId: number; idPrefix: string }) {
  const [tasks, setTasks] = useState<TaskView[]>([]);
  const [people, setPeople] = useState<Person[]>([]);
  const [text, setText] = useState("");
  const [assigneeId, setAssigneeId] = useState("");
  useEffect(() => {
    let current = true;
    Promise.all([send<TaskView[]>("GET", `/api/events/${eventId}/tasks`), send<Person[]>("GET", `/api/events/${eventId}/assignees`)])
      .then(([t, p]) => {
        if (!current) return;
        setTasks(t);
        setPeople(p);
      })
      .catch((e: Error) => current && errorToast(e.message));
    return () => {
      current = false;
    };
  }, [eventId]);

  const replace = (task: TaskView) => setTasks((list) => list.map((t) => (t.id === task.id ? task : t)));
  const change = (id: number, body: Partial<Omit<TaskView, "id">>) =>
    send<TaskView>("PATCH", `/api/tasks/${id}`, body)
      .then(replace)
      .catch((e: Error) => errorToast(e.message));

  // Not a <form>: the tasks sit inside the scene editor, which may be one.
  async function add() {
    if (!text.trim()) return;
    try {
      const task = await send<TaskView>("POST", `/api/events/${eventId}/tasks`, {
        text,
        ...(assigneeId && { assigneeId: Number(assigneeId) }),
      });
      setTasks((list) => [...list, task]);
      setText("");
      setAssigneeId("");
    } catch (error) {
      errorToast((error as Error).message);
    }
  }

  const select = "h-8 rounded-md border border-stone-300 bg-white px-1 text-sm";
  return (
    <fieldset className="space-y-2" data-testid="scene-tasks">
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
            <label htmlFor={`${idPrefix}-task-${t.id}`} className={t.done ? "text-stone-500 line-through" : undefined}>
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
              onClick={() =>
                void send("DELETE", `/api/tasks/${t.id}`)
                  .then(() => setTasks((list) => list.filter((x) => x.id !== t.id)))
                  .catch((e: Error) => errorToast(e.message))
              }
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
          className="h-8 min-w-0 flex-1 rounded-md border border-stone-300 px-2 text-sm"
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
