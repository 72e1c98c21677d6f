import { Hono } from "hono";
import { MarkNotificationsReadSchema } from "../../db/domain/validation";
import * as notifications from "../services/notifications";
import { type ApiEnv, currentUser, jsonBody, requireAuth } from "./context";

/** The signed-in writer's inbox: mentions, replies, shares and suggestions, newest first. */
export const notificationsApi = new Hono<ApiEnv>()
  .use(requireAuth)
  .get("/", async (c) => {
    return c.json(await notifications.listNotifications(c.var.db, currentUser(c).id));
  })
  .post("/read", jsonBody(MarkNotificationsReadSchema), async (c) => {
    return c.json(await notifications.markNotificationsRead(c.var.db, currentUser(c).id, c.req.valid("json").ids));
  });
