import { describe, expect, it } from "vitest";
import { ServerMessageSchema } from "../../durable-objects/protocol";
import { call, createEvent, createTimeline, registerUser, shareWith } from "./helpers";
import { connect, sleep } from "./room-helpers";

/** An owner's scene shared with an editor and a viewer, and a stranger. */
async function team() {
  const owner = await registerUser({ name: "Olive Owner" });
  const timeline = await createTimeline(owner.token, { title: "Harbour book" });
  const event = await createEvent(owner.token, timeline.id, { title: "The storm" });
  const editor = await registerUser({ name: "Mara" });
  const viewer = await registerUser({ name: "Bea Reader" });
  const stranger = await registerUser({ name: "Stranger" });
  await shareWith(timeline.id, owner.user.id, editor.user.id, "collaborator");
  await shareWith(timeline.id, owner.user.id, viewer.user.id, "viewer");
  return { owner, timeline, event, editor, viewer, stranger };
}

const addTask = (eventId: number, token: string, body: unknown) => call("POST", `/api/events/${eventId}/tasks`, { token, body });

describe("scene status", () => {
  it("editors set one of the five statuses; lists and details carry it; a viewer gets 403; anything else 400", async () => {
    const { owner, timeline, event, editor, viewer } = await team();
    expect(event.status).toBeNull();
    const set = await call("PATCH", `/api/events/${event.id}`, { token: editor.token, body: { status: "Draft" } });
    expect(set.status, set.text).toBe(200);
    expect(set.json.status).toBe("Draft");
    const list = await call("GET", `/api/timelines/${timeline.id}/events`, { token: viewer.token });
    const listed = (Array.isArray(list.json) ? list.json : list.json.events).find((e: { id: number }) => e.id === event.id);
    expect(listed.status).toBe("Draft");

    const denied = await call("PATCH", `/api/events/${event.id}`, { token: viewer.token, body: { status: "Done" } });
    expect(denied.status).toBe(403);
    for (const bad of ["done", "Finished", 3, ""]) {
      const refused = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { status: bad } });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toBe("Status must be Idea, Outline, Draft, Revised, Done or null");
    }
    const cleared = await call("PATCH", `/api/events/${event.id}`, { token: owner.token, body: { status: null } });
    expect(cleared.json.status).toBeNull();
    const created = await createEvent(owner.token, timeline.id, { title: "Dawn", status: "Idea" });
    expect(created.status).toBe("Idea");
  });
});

describe("scene tasks", () => {
  it("editors add, tick, reassign and delete tasks; every reader lists them", async () => {
    const { owner, event, editor, viewer, stranger } = await team();
    const made = await addTask(event.id, owner.token, { text: "  Check the tide tables  ", assigneeId: editor.user.id });
    expect(made.status, made.text).toBe(201);
    expect(made.json).toEqual({ id: expect.any(Number), text: "Check the tide tables", done: false, assigneeId: editor.user.id });
    const second = await addTask(event.id, editor.token, { text: "Cut the second paragraph" });
    expect(second.json.assigneeId).toBeNull();

    for (const reader of [owner, editor, viewer]) {
      const list = await call("GET", `/api/events/${event.id}/tasks`, { token: reader.token });
      expect(list.status).toBe(200);
      expect(list.json.map((t: { id: number }) => t.id)).toEqual([made.json.id, second.json.id]);
    }
    expect((await call("GET", `/api/events/${event.id}/tasks`, { token: stranger.token })).status).toBe(404);
    expect((await call("GET", `/api/events/${event.id}/tasks`)).status).toBe(401);
    expect((await addTask(event.id, viewer.token, { text: "Me too" })).status).toBe(403);
    expect((await addTask(event.id, stranger.token, { text: "Me too" })).status).toBe(404);

    const ticked = await call("PATCH", `/api/tasks/${made.json.id}`, { token: editor.token, body: { done: true } });
    expect(ticked.status).toBe(200);
    expect(ticked.json).toEqual({ id: made.json.id, text: "Check the tide tables", done: true, assigneeId: editor.user.id });
    const moved = await call("PATCH", `/api/tasks/${second.json.id}`, {
      token: owner.token,
      body: { text: "Cut it", assigneeId: owner.user.id },
    });
    expect(moved.json).toMatchObject({ text: "Cut it", assigneeId: owner.user.id });
    const unassigned = await call("PATCH", `/api/tasks/${second.json.id}`, { token: owner.token, body: { assigneeId: null } });
    expect(unassigned.json.assigneeId).toBeNull();

    const gone = await call("DELETE", `/api/tasks/${second.json.id}`, { token: editor.token });
    expect(gone.status).toBe(204);
    const after = await call("GET", `/api/events/${event.id}/tasks`, { token: owner.token });
    expect(after.json.map((t: { id: number }) => t.id)).toEqual([made.json.id]);
    expect((await call("DELETE", `/api/tasks/${second.json.id}`, { token: owner.token })).status).toBe(404);
  });

  it("the events list carries each scene's open tasks' assignees, and a task's change is a new list (ETag)", async () => {
    const { owner, timeline, event, editor, viewer } = await team();
    const other = await createEvent(owner.token, timeline.id, { title: "Dawn" });
    const path = `/api/timelines/${timeline.id}/events`;
    const assignees = async (token: string) => {
      const list = await call("GET", path, { token });
      expect(list.status).toBe(200);
      const events = (Array.isArray(list.json) ? list.json : list.json.events) as { id: number; assigneeIds: number[] }[];
      return { byId: new Map(events.map((e) => [e.id, e.assigneeIds])), etag: list.headers.get("ETag") ?? "" };
    };
    const before = await assignees(owner.token);
    expect(before.byId.get(event.id)).toEqual([]);

    const mine = await addTask(event.id, owner.token, { text: "Tide tables", assigneeId: editor.user.id });
    await addTask(event.id, owner.token, { text: "Again", assigneeId: editor.user.id });
    await addTask(event.id, owner.token, { text: "Nobody's" });
    await addTask(other.id, editor.token, { text: "Mine", assigneeId: owner.user.id });
    // The list changed: the old ETag gets the new list, not a 304.
    const fresh = await call("GET", path, { token: owner.token, headers: { "If-None-Match": before.etag } });
    expect(fresh.status).toBe(200);
    const now = await assignees(viewer.token);
    expect(now.byId.get(event.id)).toEqual([editor.user.id]);
    expect(now.byId.get(other.id)).toEqual([owner.user.id]);

    // A done task no longer counts; the same list is a 304 until then.
    expect((await call("GET", path, { token: owner.token, headers: { "If-None-Match": now.etag } })).status).toBe(304);
    await call("PATCH", `/api/tasks/${mine.json.id}`, { token: owner.token, body: { done: true } });
    expect((await assignees(owner.token)).byId.get(event.id)).toEqual([editor.user.id]);
    const rest = (await call("GET", `/api/events/${event.id}/tasks`, { token: owner.token })).json as { id: number; assigneeId: number }[];
    for (const t of rest.filter((t) => t.assigneeId === editor.user.id && t.id !== mine.json.id))
      await call("DELETE", `/api/tasks/${t.id}`, { token: owner.token });
    const after = await assignees(owner.token);
    expect(after.byId.get(event.id)).toEqual([]);
    expect(after.etag).not.toBe(now.etag);

    // A saved scene's answer carries them too.
    const saved = await call("PATCH", `/api/events/${other.id}`, { token: owner.token, body: { status: "Draft" } });
    expect(saved.json.assigneeIds).toEqual([owner.user.id]);
  });

  it("the assignee must be able to edit the timeline; bad bodies get clear 400s", async () => {
    const { owner, event, viewer, stranger } = await team();
    for (const assigneeId of [stranger.user.id, viewer.user.id, 999_999_999]) {
      const refused = await addTask(event.id, owner.token, { text: "Look", assigneeId });
      expect(refused.status).toBe(400);
      expect(refused.json.error).toBe("The assignee must be someone who can edit this timeline");
    }
    const huge = await addTask(event.id, owner.token, { text: "x".repeat(501) });
    expect(huge.status).toBe(400);
    expect(huge.json.error).toBe("Task must be 500 characters or less");
    const empty = await addTask(event.id, owner.token, { text: "   " });
    expect(empty.json.error).toBe("Task cannot be empty");
    const badAssignee = await addTask(event.id, owner.token, { text: "Look", assigneeId: "mara" });
    expect(badAssignee.json.error).toBe("Assignee must be a user id or null");
    const task = await addTask(event.id, owner.token, { text: "Look" });
    const badDone = await call("PATCH", `/api/tasks/${task.json.id}`, { token: owner.token, body: { done: "yes" } });
    expect(badDone.status).toBe(400);
    expect(badDone.json.error).toBe("Done must be true or false");
    const nothing = await call("PATCH", `/api/tasks/${task.json.id}`, { token: owner.token, body: {} });
    expect(nothing.status).toBe(400);
    const reassign = await call("PATCH", `/api/tasks/${task.json.id}`, { token: owner.token, body: { assigneeId: stranger.user.id } });
    expect(reassign.status).toBe(400);
  });

  it("another account cannot change or delete a task: 404, as for a forged id; a viewer 403", async () => {
    const { owner, event, viewer, stranger } = await team();
    const task = await addTask(event.id, owner.token, { text: "Mine" });
    expect((await call("PATCH", `/api/tasks/${task.json.id}`, { token: stranger.token, body: { done: true } })).status).toBe(404);
    expect((await call("DELETE", `/api/tasks/${task.json.id}`, { token: stranger.token })).status).toBe(404);
    // A viewer knows the task exists (they can list it) but may not change it.
    expect((await call("PATCH", `/api/tasks/${task.json.id}`, { token: viewer.token, body: { done: true } })).status).toBe(403);
    expect((await call("DELETE", `/api/tasks/${task.json.id}`, { token: viewer.token })).status).toBe(403);
    expect((await call("PATCH", `/api/tasks/999999999`, { token: owner.token, body: { done: true } })).status).toBe(404);
    expect((await call("PATCH", `/api/tasks/abc`, { token: owner.token, body: { done: true } })).status).toBe(404);
    const still = await call("GET", `/api/events/${event.id}/tasks`, { token: owner.token });
    expect(still.json).toEqual([{ id: task.json.id, text: "Mine", done: false, assigneeId: null }]);
  });

  it("'My tasks' lists open tasks assigned to me with titles; a removed collaborator's are not listed", async () => {
    const { owner, timeline, event, editor } = await team();
    const open = await addTask(event.id, owner.token, { text: "Tide tables", assigneeId: editor.user.id });
    const done = await addTask(event.id, owner.token, { text: "Map", assigneeId: editor.user.id });
    await call("PATCH", `/api/tasks/${done.json.id}`, { token: editor.token, body: { done: true } });
    await addTask(event.id, owner.token, { text: "Owner's own", assigneeId: owner.user.id });

    const mine = await call("GET", "/api/account/tasks", { token: editor.token });
    expect(mine.status).toBe(200);
    expect(mine.json).toEqual([
      {
        id: open.json.id,
        text: "Tide tables",
        done: false,
        assigneeId: editor.user.id,
        eventId: event.id,
        eventTitle: "The storm",
        timelineId: timeline.id,
        timelineTitle: "Harbour book",
      },
    ]);
    expect((await call("GET", "/api/account/tasks")).status).toBe(401);

    const removed = await call("DELETE", `/api/timelines/${timeline.id}/shares/${editor.user.id}`, { token: owner.token });
    expect(removed.status).toBeLessThan(300);
    expect((await call("GET", "/api/account/tasks", { token: editor.token })).json).toEqual([]);
  });

  it("assigning notifies the assignee, but not when writers assign themselves", async () => {
    const { owner, event, editor } = await team();
    const inbox = async (token: string) => (await call("GET", "/api/notifications", { token })).json;
    await addTask(event.id, owner.token, { text: "Tide tables", assigneeId: editor.user.id });
    const got = await inbox(editor.token);
    const notes = (Array.isArray(got) ? got : got.notifications) as { type: string; title: string; message: string }[];
    const task = notes.find((n) => n.type === "task");
    expect(task).toMatchObject({
      title: "Olive Owner assigned you a task",
      message: 'Olive Owner assigned you "Tide tables" on "The storm" in "Harbour book"',
    });
    await addTask(event.id, owner.token, { text: "Mine", assigneeId: owner.user.id });
    const own = await inbox(owner.token);
    expect(((Array.isArray(own) ? own : own.notifications) as { type: string }[]).filter((n) => n.type === "task")).toEqual([]);
    // Reassigning to the same person again tells nobody twice; to a new one tells them.
    const t = await addTask(event.id, editor.token, { text: "Dawn light" });
    await call("PATCH", `/api/tasks/${t.json.id}`, { token: editor.token, body: { assigneeId: owner.user.id } });
    const ownerNow = await inbox(owner.token);
    expect(
      ((Array.isArray(ownerNow) ? ownerNow : ownerNow.notifications) as { type: string }[]).filter((n) => n.type === "task"),
    ).toHaveLength(1);
  });
});

describe("the scene editor's Tasks", () => {
  it("GET /api/events/{id}/task-panel: the tasks and the possible assignees in one answer; editors only", async () => {
    const { owner, event, editor, viewer, stranger } = await team();
    const made = await addTask(event.id, owner.token, { text: "Tide tables", assigneeId: editor.user.id });
    for (const writer of [owner, editor]) {
      const panel = await call("GET", `/api/events/${event.id}/task-panel`, { token: writer.token });
      expect(panel.status, panel.text).toBe(200);
      expect(panel.json).toEqual({
        tasks: [{ id: made.json.id, text: "Tide tables", done: false, assigneeId: editor.user.id }],
        assignees: [
          { id: editor.user.id, name: "Mara" },
          { id: owner.user.id, name: "Olive Owner" },
        ],
      });
    }
    // A viewer may read the tasks (GET /tasks) but not open the editor's panel, nor learn who may be assigned.
    expect((await call("GET", `/api/events/${event.id}/task-panel`, { token: viewer.token })).status).toBe(403);
    // Another account, a forged id, a malformed id, nobody signed in.
    expect((await call("GET", `/api/events/${event.id}/task-panel`, { token: stranger.token })).status).toBe(404);
    expect((await call("GET", "/api/events/999999999/task-panel", { token: owner.token })).status).toBe(404);
    expect((await call("GET", "/api/events/abc/task-panel", { token: owner.token })).status).toBe(404);
    expect((await call("GET", `/api/events/${event.id}/task-panel`)).status).toBe(401);
  });

  it("every task write tells the room with a 'tasks' sync naming the scene, without a notice; a refused write tells nobody", async () => {
    const { owner, timeline, event, editor, viewer } = await team();
    const watcher = await connect(timeline.id, editor.token);
    await sleep(50);
    watcher.clear();
    const t = await addTask(event.id, owner.token, { text: "Live" });
    const sync = await watcher.waitFor((m) => m.type === "sync", "add sync");
    expect(sync).toEqual({ type: "sync", scope: "tasks", eventId: event.id });
    expect(ServerMessageSchema.safeParse(sync).success).toBe(true);
    watcher.clear();
    await call("PATCH", `/api/tasks/${t.json.id}`, { token: owner.token, body: { done: true } });
    expect(await watcher.waitFor((m) => m.type === "sync", "tick sync")).toEqual({ type: "sync", scope: "tasks", eventId: event.id });
    watcher.clear();
    await call("DELETE", `/api/tasks/${t.json.id}`, { token: owner.token });
    expect(await watcher.waitFor((m) => m.type === "sync", "delete sync")).toEqual({ type: "sync", scope: "tasks", eventId: event.id });
    await sleep(100);
    expect(watcher.messages.some((m) => m.type === "notification")).toBe(false);
    watcher.clear();
    expect((await addTask(event.id, viewer.token, { text: "Sneaky" })).status).toBe(403);
    await sleep(150);
    expect(watcher.messages.some((m) => m.type === "sync")).toBe(false);
    watcher.ws.close();
  });
});
