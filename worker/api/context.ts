import { createMiddleware } from "hono/factory";
import { validator } from "hono/validator";
import type { z } from "zod";
import type { Db } from "../../db/client";
import { localeOf } from "../../db/domain/calendar/locale";
import { firstIssue } from "../../db/domain/validation";
import type { Env } from "../env";
import { badRequest, forbidden, unauthorized } from "../lib/errors";
import { createMailer } from "../lib/mailer";
import type { NotifyMail } from "../services/notifications";
import { type AuthVia, clientKey } from "../lib/request-auth";
import { type LiveDocs, type RoomNotifier, createDocRemover } from "../lib/room";
import { type RateRule, createLimiter, spend } from "../services/rate-limits";
import type { TimelineAccessRow } from "../services/access";
import type { ReservedKey } from "../services/idempotency-keys";
import type { SessionUser } from "../services/sessions";

export type ApiEnv = {
  Bindings: Env;
  Variables: {
    db: Db;
    session: SessionUser | null;
    authVia: AuthVia | null;
    token: string | null;
    room: RoomNotifier;
    docs: LiveDocs;
    /** The access row of the timeline whose events list is asked for, read with the session (else null). */
    timelineRow: TimelineAccessRow | null;
    /** The Idempotency-Key this create holds (worker/api/idempotency.ts); unset without the header. */
    idempotencyKey?: ReservedKey;
  };
};

type RequestContext = {
  var: ApiEnv["Variables"];
  env: ApiEnv["Bindings"];
  req: { url: string; header(name: string): string | undefined };
  executionCtx: { waitUntil(p: Promise<unknown>): void };
};

/** Notifications' emails: links to this origin, sent after the answer (waitUntil). */
export const notifyMail = (c: RequestContext): NotifyMail => ({
  origin: new URL(c.req.url).origin,
  mailer: createMailer(c.env),
  defer: (p) => c.executionCtx.waitUntil(p),
  env: c.env,
});

/** The services' dependencies for a write: the database, the request's room notifier and the notifications' mail. */
export const deps = (c: RequestContext) => ({
  db: c.var.db,
  room: c.var.room,
  docs: c.var.docs,
  mail: notifyMail(c),
  locale: localeOf(c.req.header("Accept-Language")),
});

/**
 * `deps` plus the attachments' bucket, for writes that add or remove files (events, timelines, attachments),
 * and the events' shared docs, whose storage goes when they are deleted.
 */
export const fileDeps = (c: RequestContext) => ({
  ...deps(c),
  files: c.env.FILES,
  removeDocs: createDocRemover(c.env),
});

/** What a bare string, number or array body is told when an empty object would pass (no field names it). */
export const NOT_AN_OBJECT = "Request body must be a JSON object";

/**
 * Validates a JSON body with a zod schema; the first broken rule becomes the 400 message. A body that is not an
 * object (a bare string, number, array or `null`) is answered as an empty one is (its first missing field), never
 * with zod's own "expected object" wording, and never taken for an empty object.
 */
export const jsonBody = <T extends z.ZodType>(schema: T) =>
  validator("json", (value, _c): z.output<T> => {
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    const [first] = parsed.error.issues;
    if (first?.code === "invalid_type" && first.path.length === 0 && first.expected === "object") {
      const empty = schema.safeParse({});
      throw badRequest(empty.success ? NOT_AN_OBJECT : firstIssue(empty.error));
    }
    throw badRequest(firstIssue(parsed.error));
  });

/** 401 unless signed in. */
export const requireAuth = createMiddleware<ApiEnv>(async (c, next) => {
  if (!c.var.session) throw unauthorized();
  await next();
});

/** 401 anonymous, 403 signed-in non-admin. */
export const requireAdmin = createMiddleware<ApiEnv>(async (c, next) => {
  if (!c.var.session) throw unauthorized();
  if (c.var.session.user.role !== "admin") throw forbidden("Admin access required");
  await next();
});

export function currentUser(c: { var: ApiEnv["Variables"] }) {
  const session = c.var.session;
  if (!session) throw unauthorized();
  return session.user;
}

/** The request's rate-limit budget: configured numbers ([vars]) and the caller's client address. */
export const limiter = (c: { var: ApiEnv["Variables"]; env: ApiEnv["Bindings"]; req: { raw: Request } }) =>
  createLimiter(c.var.db, c.env, clientKey(c.req.raw));

/** Spends one use per signed-in account and one per client address (429 with Retry-After past either). */
export const rateLimited = (perAccount: RateRule, perClient?: RateRule) =>
  createMiddleware<ApiEnv>(async (c, next) => {
    const budget = limiter(c);
    if (perClient) await spend(budget, perClient, budget.client);
    if (c.var.session) await spend(budget, perAccount, `user:${c.var.session.user.id}`);
    await next();
  });
