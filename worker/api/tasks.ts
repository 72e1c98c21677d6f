import { Hono } from "hono";
import { CreateTaskSchema, UpdateTaskSchema, taskMessages } from "../../db/domain/validation-tasks";
import { EVENT_NOT_FOUND } from "../services/events";
import * as tasksService from "../services/tasks";
import { type ApiEnv, currentUser, deps, jsonBody, limiter, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/** A scene's tasks and the writer's own (DESIGN.md §12), mounted at the API root: each route carries its full path. */
export const tasksApi = new Hono<ApiEnv>()
  .get("/account/tasks", requireAuth, async (c) => c.json(await tasksService.listMyTasks(c.var.db, currentUser(c))))
  .get("/events/:id/tasks", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
    return c.json(await tasksService.listTasks(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .get("/events/:id/task-panel", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
    return c.json(await tasksService.taskPanel(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .get("/events/:id/assignees", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
    return c.json(await tasksService.listAssignees(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .post("/events/:id/tasks", requireAuth, shareQuery, jsonBody(CreateTaskSchema), async (c) => {
    const id = idParam(c.req.param("id"), EVENT_NOT_FOUND);
    const task = await tasksService.createTask(deps(c), limiter(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share);
    return c.json(task, 201);
  })
  .patch("/tasks/:id", requireAuth, shareQuery, jsonBody(UpdateTaskSchema), async (c) => {
    const id = idParam(c.req.param("id"), taskMessages.notFound);
    return c.json(await tasksService.updateTask(deps(c), limiter(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  })
  .delete("/tasks/:id", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), taskMessages.notFound);
    await tasksService.deleteTask(deps(c), currentUser(c), id, c.req.valid("query").share);
    return c.body(null, 204);
  });
