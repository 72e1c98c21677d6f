import { Hono } from "hono";
import { AddBookSchema, CreateSeriesSchema, UpdateSeriesSchema, seriesMessages } from "../../db/domain/validation-series";
import * as seriesService from "../services/series";
import { type ApiEnv, currentUser, deps, jsonBody, rateLimited, requireAuth } from "./context";
import { idParam } from "./params";

/** Every write (create, rename, reorder, add or remove a book) is counted per account. */
const seriesRate = rateLimited("seriesWrites");

/** Series: a writer's books sharing one codex. Every route needs a signed-in writer. */
export const seriesApi = new Hono<ApiEnv>()
  .use(requireAuth)
  .get("/", async (c) => c.json(await seriesService.listSeries(c.var.db, currentUser(c))))
  .post("/", seriesRate, jsonBody(CreateSeriesSchema), async (c) => {
    return c.json(await seriesService.createSeries(c.var.db, currentUser(c), c.req.valid("json")), 201);
  })
  .get("/:id", async (c) => {
    const id = idParam(c.req.param("id"), seriesMessages.notFound);
    const { isOwner: _, ...view } = await seriesService.getSeries(c.var.db, currentUser(c), id);
    return c.json(view);
  })
  .patch("/:id", seriesRate, jsonBody(UpdateSeriesSchema), async (c) => {
    const id = idParam(c.req.param("id"), seriesMessages.notFound);
    return c.json(await seriesService.updateSeries(c.var.db, currentUser(c), id, c.req.valid("json")));
  })
  .post("/:id/books", seriesRate, jsonBody(AddBookSchema), async (c) => {
    const id = idParam(c.req.param("id"), seriesMessages.notFound);
    return c.json(await seriesService.addBook(c.var.db, currentUser(c), id, c.req.valid("json").timelineId));
  })
  .delete("/:id/books/:timelineId", seriesRate, async (c) => {
    const id = idParam(c.req.param("id"), seriesMessages.notFound);
    const timelineId = idParam(c.req.param("timelineId"), "Timeline not found");
    return c.json(await seriesService.removeBook(deps(c), currentUser(c), id, timelineId));
  });
