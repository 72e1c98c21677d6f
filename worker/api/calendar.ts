import { Hono } from "hono";
import { z } from "zod";
import { TIMELINE_NOT_FOUND } from "../services/access";
import * as calendarService from "../services/calendar";
import { type ApiEnv, currentUser, deps, jsonBody, rateLimited, requireAuth } from "./context";
import { idParam, shareQuery } from "./params";

/** The calendar a timeline's story dates are counted and written in. Validated by the domain, with its messages. */
export const CalendarBodySchema = z.unknown();

export const calendarApi = new Hono<ApiEnv>()
  .get("/timelines/:id/calendar", requireAuth, shareQuery, async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await calendarService.getCalendar(c.var.db, currentUser(c), id, c.req.valid("query").share));
  })
  .put("/timelines/:id/calendar", requireAuth, rateLimited("planWrites"), shareQuery, jsonBody(CalendarBodySchema), async (c) => {
    const id = idParam(c.req.param("id"), TIMELINE_NOT_FOUND);
    return c.json(await calendarService.putCalendar(deps(c), currentUser(c), id, c.req.valid("json"), c.req.valid("query").share));
  });
