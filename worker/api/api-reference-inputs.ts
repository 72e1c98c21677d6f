import type { z } from "zod";
import { CreateChapterBatchSchema } from "../services/chapters-batch";
import { CreateEventBatchSchema } from "../services/events-batch";
import { CreateTaskSchema, UpdateTaskSchema } from "../../db/domain/validation-tasks";
import { CreateReaderLinkSchema, ReaderCommentSchema, ReaderProgressSchema } from "../../db/domain/validation-readers";
import {
  CharacterSchema,
  ContinueSceneSchema,
  CreateChapterSchema,
  CreateCommentSchema,
  CreateEntitySchema,
  CreateEventSchema,
  CreateMapEdgeSchema,
  CreateMapNodeSchema,
  CreatePlotlineSchema,
  CreateTimelineSchema,
  EnhanceSchema,
  ForgotPasswordSchema,
  IdeasSchema,
  LoginSchema,
  MarkNotificationsReadSchema,
  MapPositionsSchema,
  OpenAIKeySchema,
  RegisterSchema,
  ResetPasswordSchema,
  SetPremiumSchema,
  ShareLinkSchema,
  ShareWithUserSchema,
  StopStreamSchema,
  StripeKeysSchema,
  SuggestPlotSchema,
  TransformSchema,
  UpdateChapterSchema,
  UpdateCommentSchema,
  UpdateEntitySchema,
  UpdateEventSchema,
  UpdateMapEdgeSchema,
  UpdateMapNodeSchema,
  UpdatePlotlineSchema,
  UpdateTimelineSchema,
  UpgradeSchema,
} from "../../db/domain/validation";
import { ChangePasswordSchema, DeleteAccountSchema, UpdateAccountSchema } from "./account";
import { TokenSchema } from "./auth";
import { CalendarBodySchema } from "./calendar";
import { NameVersionSchema } from "./versions";
import { CreateProgressionSchema, UpdateProgressionSchema } from "../services/progressions";
import { CreateRelationshipSchema, UpdateRelationshipSchema } from "../services/relationships";
import { WriterAiSchema } from "../services/writer-ai";
import { CreateTemplateSchema, StructureSchema } from "../../db/domain/validation-templates";
import { AddBookSchema, CreateSeriesSchema, UpdateSeriesSchema } from "../../db/domain/validation-series";

/**
 * What the API reference says each route takes beyond its row in api-reference.ts: the JSON bodies (the very zod
 * schemas the handlers validate with), query parameters, bodies and answers that are not JSON, streaming.
 */
/** JSON bodies: the schemas the routes' `jsonBody(...)` validate with. */
export const bodies: Record<string, z.ZodType> = {
  "POST /api/auth/register": RegisterSchema,
  "POST /api/auth/login": LoginSchema,
  "POST /api/auth/forgot-password": ForgotPasswordSchema,
  "POST /api/auth/verify-reset-token": TokenSchema,
  "POST /api/auth/verify-email": TokenSchema,
  "POST /api/auth/reset-password": ResetPasswordSchema,
  "POST /api/timelines": CreateTimelineSchema,
  "PATCH /api/timelines/{id}": UpdateTimelineSchema,
  "POST /api/timelines/{id}/events": CreateEventSchema,
  "POST /api/timelines/{id}/share": ShareLinkSchema,
  "POST /api/timelines/{id}/share-with-user": ShareWithUserSchema,
  "PATCH /api/events/{id}": UpdateEventSchema,
  "POST /api/timelines/{id}/entities": CreateEntitySchema,
  "PATCH /api/entities/{id}": UpdateEntitySchema,
  "POST /api/entities/{id}/progressions": CreateProgressionSchema,
  "PATCH /api/progressions/{id}": UpdateProgressionSchema,
  "POST /api/timelines/{id}/relationships": CreateRelationshipSchema,
  "PATCH /api/relationships/{id}": UpdateRelationshipSchema,
  "POST /api/series": CreateSeriesSchema,
  "PATCH /api/series/{id}": UpdateSeriesSchema,
  "POST /api/series/{id}/books": AddBookSchema,
  "POST /api/timelines/{id}/chapters": CreateChapterSchema,
  "POST /api/timelines/{id}/chapters/batch": CreateChapterBatchSchema,
  "POST /api/timelines/{id}/events/batch": CreateEventBatchSchema,
  "PATCH /api/chapters/{id}": UpdateChapterSchema,
  "POST /api/templates": CreateTemplateSchema,
  "PUT /api/timelines/{id}/structure": StructureSchema,
  "POST /api/timelines/{id}/plotlines": CreatePlotlineSchema,
  "PATCH /api/plotlines/{id}": UpdatePlotlineSchema,
  "PUT /api/timelines/{id}/calendar": CalendarBodySchema,
  "POST /api/events/{id}/comments": CreateCommentSchema,
  "PATCH /api/comments/{id}": UpdateCommentSchema,
  "POST /api/events/{id}/tasks": CreateTaskSchema,
  "PATCH /api/tasks/{id}": UpdateTaskSchema,
  "POST /api/timelines/{id}/reader-links": CreateReaderLinkSchema,
  "POST /api/read/{code}/comments": ReaderCommentSchema,
  "POST /api/read/{code}/progress": ReaderProgressSchema,
  "PUT /api/timelines/{id}/map/positions": MapPositionsSchema,
  "POST /api/timelines/{id}/map/nodes": CreateMapNodeSchema,
  "PATCH /api/map-nodes/{id}": UpdateMapNodeSchema,
  "POST /api/timelines/{id}/map/edges": CreateMapEdgeSchema,
  "PATCH /api/map-edges/{id}": UpdateMapEdgeSchema,
  "PATCH /api/event-versions/{id}": NameVersionSchema,
  "POST /api/ai/stop": StopStreamSchema,
  "POST /api/ideas/generate": IdeasSchema,
  "POST /api/writing/enhance": EnhanceSchema,
  "POST /api/writing/character": CharacterSchema,
  "POST /api/writing/transform": TransformSchema,
  "POST /api/story/suggest-plot": SuggestPlotSchema,
  "POST /api/events/{id}/continue": ContinueSceneSchema,
  "POST /api/subscription/upgrade": UpgradeSchema,
  "PATCH /api/account": UpdateAccountSchema,
  "POST /api/notifications/read": MarkNotificationsReadSchema,
  "POST /api/account/password": ChangePasswordSchema,
  "DELETE /api/account": DeleteAccountSchema,
  "PUT /api/account/ai": WriterAiSchema,
  "POST /api/admin/users/{id}/premium": SetPremiumSchema,
  "POST /api/config/openai-key": OpenAIKeySchema,
  "POST /api/config/stripe-keys": StripeKeysSchema,
};

export type Query = { name: string; description: string; values?: string[] };
export type Details = {
  query?: Query[];
  rawBody?: string[];
  okType?: string;
  stream?: boolean;
  /** Takes an `Idempotency-Key` header (worker/api/idempotency.ts): a repeat is answered with the first result. */
  idempotent?: boolean;
};

const share: Query = { name: "share", description: "A share link's code: acts with that link's access level (shared mode)" };
const ai: Details = { stream: true };
const importTitle: Query = {
  name: "title",
  description: "The new timeline's title (a sheet has none; replaces a JSON or Markdown file's)",
};
const dateOrder: Query = {
  name: "dateOrder",
  description: "How a sheet's dates like 3/4/2024 read: month first or day first (else the file's other dates decide, month first)",
  values: ["mdy", "dmy"],
};
const importSeries: Query = {
  name: "seriesId",
  description: "Adds the new timeline to one of the caller's series as its last book, its codex merged by name",
};
const importFilename: Query = {
  name: "filename",
  description: "The file's name (also read from Content-Disposition): the title when the file names none",
};
const importDryRun: Query = {
  name: "dryRun",
  description: "`1`: answer 200 `{summary: {title, chapters, scenes, words, codex, plotlines, skipped}}` and write nothing",
  values: ["1"],
};
const importTypes = [
  "application/json",
  "text/markdown",
  "text/plain",
  "text/csv",
  "text/tab-separated-values",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.oasis.opendocument.spreadsheet",
];
/** The book formats (docs: IMPORT.md), up to 20 MB: Word, ODT, Scrivener/novelWriter zips, yWriter. Plottr is JSON. */
const bookTypes = [
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.oasis.opendocument.text",
  "application/zip",
  "application/xml",
  "text/xml",
];
const sharedAi: Details = { stream: true, query: [share] };

/** Query parameters, bodies that are not JSON, answers that are not JSON, streaming. */
export const details: Record<string, Details> = {
  "GET /api/auth/oauth/{provider}": {
    query: [
      { name: "intent", description: "`link` connects the provider to the signed-in account", values: ["link"] },
      { name: "redirectTo", description: "A same-origin path to return to after signing in" },
    ],
  },
  "GET /api/auth/oauth/{provider}/callback": {
    query: [
      { name: "state", description: "Must match the pending sign-in" },
      { name: "code", description: "The provider's authorization code" },
      { name: "error", description: "Set when the writer refused" },
    ],
  },
  "GET /api/timelines/{id}": { query: [share] },
  "GET /api/timelines/{id}/events": { query: [share, { name: "order", description: "List order", values: ["position", "chronological"] }] },
  "POST /api/timelines/{id}/events": { query: [share], idempotent: true },
  "POST /api/timelines/{id}/events/batch": { query: [share] },
  "PATCH /api/events/{id}": { query: [share] },
  "DELETE /api/events/{id}": { query: [share] },
  "GET /api/events/{id}/versions": { query: [share] },
  "GET /api/event-versions/{id}": { query: [share] },
  "PATCH /api/event-versions/{id}": { query: [share] },
  "POST /api/event-versions/{id}/restore": { query: [share] },
  "POST /api/events/{id}/attachments": { query: [share], rawBody: ["multipart/form-data"] },
  "GET /api/attachments/{id}": { query: [share], okType: "application/octet-stream" },
  "DELETE /api/attachments/{id}": { query: [share] },
  "GET /api/timelines/{id}/entities": { query: [share] },
  "POST /api/timelines/{id}/entities": { query: [share] },
  "POST /api/timelines/{id}/codex/link-mentions": { query: [share] },
  "PATCH /api/entities/{id}": { query: [share] },
  "DELETE /api/entities/{id}": { query: [share] },
  "GET /api/timelines/{id}/chapters": { query: [share] },
  "POST /api/timelines/{id}/chapters": { query: [share], idempotent: true },
  "POST /api/timelines/{id}/chapters/batch": { query: [share] },
  "PATCH /api/chapters/{id}": { query: [share] },
  "DELETE /api/chapters/{id}": { query: [share] },
  "GET /api/timelines/{id}/structure": { query: [share] },
  "PUT /api/timelines/{id}/structure": { query: [share] },
  "GET /api/timelines/{id}/plotlines": { query: [share] },
  "POST /api/timelines/{id}/plotlines": { query: [share], idempotent: true },
  "PATCH /api/plotlines/{id}": { query: [share] },
  "DELETE /api/plotlines/{id}": { query: [share] },
  "GET /api/timelines/{id}/calendar": { query: [share] },
  "PUT /api/timelines/{id}/calendar": { query: [share] },
  "GET /api/events/{id}/comments": { query: [share] },
  "GET /api/timelines/{id}/people": { query: [share] },
  "POST /api/events/{id}/comments": { query: [share] },
  "PATCH /api/comments/{id}": { query: [share] },
  "DELETE /api/comments/{id}": { query: [share] },
  "GET /api/timelines/{id}/comments": {
    query: [
      share,
      { name: "status", description: "Only open or only resolved threads", values: ["open", "resolved"] },
      { name: "author", description: "Only threads this user id started or replied to" },
      { name: "counts", description: "1: only `{counts: {eventId: n}}`, the open threads per scene", values: ["1"] },
    ],
  },
  "GET /api/events/{id}/doc-state": { query: [share], okType: "application/octet-stream" },
  "GET /api/timelines/{id}/activity": {
    query: [
      share,
      { name: "userId", description: "Only what this writer did" },
      { name: "limit", description: "At most this many items (1-100, default 50)" },
      { name: "before", description: "An item's cursor: the page after it" },
    ],
  },
  "GET /api/timelines/{id}/progress": {
    query: [
      share,
      { name: "by", description: "writer: also each writer's days", values: ["writer"] },
      { name: "tz", description: "The writer's IANA time zone: days start at its midnight (default UTC)" },
    ],
  },
  "GET /api/timelines/{id}/map": { query: [share] },
  "PUT /api/timelines/{id}/map/positions": { query: [share] },
  "POST /api/timelines/{id}/map/nodes": { query: [share] },
  "PATCH /api/map-nodes/{id}": { query: [share] },
  "DELETE /api/map-nodes/{id}": { query: [share] },
  "POST /api/timelines/{id}/map/edges": { query: [share] },
  "PATCH /api/map-edges/{id}": { query: [share] },
  "DELETE /api/map-edges/{id}": { query: [share] },
  "GET /api/timelines/{id}/export": {
    query: [
      { name: "format", description: "File format (JSON when left out)", values: ["json", "md", "docx", "epub"] },
      {
        name: "style",
        description: "A .docx's layout: the planning outline (default) or standard manuscript format",
        values: ["outline", "manuscript"],
      },
      { name: "notes", description: "`0` leaves the outline's planning notes (story time, codex) out", values: ["0", "1"] },
      share,
    ],
    okType: "application/octet-stream",
  },
  "POST /api/timelines/import": {
    query: [importTitle, dateOrder, importSeries, importFilename, importDryRun],
    rawBody: [...importTypes, ...bookTypes],
  },
  "POST /api/timelines/{id}/import": { query: [dateOrder, share], rawBody: importTypes },
  "POST /api/ideas/generate": ai,
  "POST /api/writing/enhance": ai,
  "POST /api/writing/character": ai,
  "POST /api/writing/transform": sharedAi,
  "POST /api/story/suggest-plot": sharedAi,
  "POST /api/events/{id}/continue": sharedAi,
  "POST /api/subscription/webhook": { rawBody: ["application/json"] },
  "GET /api/account/export": { okType: "application/zip" },
  "GET /api/docs": { okType: "text/html" },
};
