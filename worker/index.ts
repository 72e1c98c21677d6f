import { createRequestHandler, RouterContextProvider } from "react-router";
import { appContext } from "../app/context";
import { createDb } from "../db/client";
import { api } from "./api";
import type { Env } from "./env";
import { meterD1, serverTiming } from "./lib/d1-meter";
import { openD1Session } from "./lib/d1-session";
import { UNEXPECTED } from "./lib/errors";
import { createMailer, mailerConfigProblem } from "./lib/mailer";
import { isCrossSiteMutation } from "./lib/request-auth";
import { createDocRemover, createRoomNotifier } from "./lib/room";
import { createNonce, withSecurityHeaders } from "./lib/security-headers";
import { handleRoomUpgrade } from "./room-upgrade";
import { sendDailyDigests } from "./services/digest";
import { purgeExpired } from "./services/purge";
import { authenticate } from "./services/sessions";

export { EventDoc } from "../durable-objects/event-doc";
export { TimelineRoom } from "../durable-objects/timeline-room";

const requestHandler = createRequestHandler(() => import("virtual:react-router/server-build"), import.meta.env.MODE);
const dev = import.meta.env.MODE === "development";

function plainError(status: number, message: string) {
  return Response.json({ error: message }, { status });
}

async function route(request: Request, env: Env, ctx: ExecutionContext, nonce: string) {
  const { pathname } = new URL(request.url);
  if (pathname === "/api" || pathname.startsWith("/api/")) return api.fetch(request, env, ctx);
  if (pathname.startsWith("/ws/")) return handleRoomUpgrade(request, env, ctx);

  if (isCrossSiteMutation(request)) return plainError(403, "Cross-site request refused");
  const db = createDb(env.DB);
  const auth = await authenticate(request, db, (p) => ctx.waitUntil(p));
  const context = new RouterContextProvider();
  context.set(appContext, { env, ctx, db, nonce, auth, room: createRoomNotifier(env, ctx, request, auth.session?.user.id) });
  return requestHandler(request, context);
}

export default {
  async fetch(request, env, ctx) {
    const nonce = createNonce();
    if (!env.APP_SECRET) {
      console.error("APP_SECRET is not set: run `npm run dev` (creates .dev.vars) or `wrangler secret put APP_SECRET`.");
      return withSecurityHeaders(plainError(500, "Server is not configured"), request, nonce, dev);
    }
    const mailProblem = mailerConfigProblem(env, dev);
    if (mailProblem) {
      console.error(`Refusing to start: ${mailProblem}`);
      return withSecurityHeaders(plainError(500, "Server is not configured"), request, nonce, dev);
    }
    try {
      const d1 = await openD1Session(env.DB, request, env.APP_SECRET);
      if (env.SERVER_TIMING === "1") {
        // `npm run bench`: report the D1 statements this request made.
        const startedAt = Date.now();
        const { db, meter } = meterD1(d1.db);
        const response = await route(request, { ...env, DB: db }, ctx, nonce);
        if (response.status === 101) return response;
        const timed = await d1.bookmarkCookie(new Response(response.body, response));
        timed.headers.set("Server-Timing", serverTiming(meter, startedAt));
        return withSecurityHeaders(timed, request, nonce, dev);
      }
      const response = await route(request, { ...env, DB: d1.db }, ctx, nonce);
      if (response.status === 101) return response;
      return withSecurityHeaders(await d1.bookmarkCookie(response), request, nonce, dev);
    } catch (error) {
      console.error("[worker] unhandled error:", error);
      return withSecurityHeaders(plainError(500, UNEXPECTED), request, nonce, dev);
    }
  },
  /** Cron trigger (wrangler.toml `[triggers]`): drops expired sessions, tokens, old login attempts and old Trash. */
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(
      purgeExpired(createDb(env.DB), Date.now(), { files: env.FILES, removeDocs: createDocRemover(env) }).then(
        (purged) => console.log("[purge]", JSON.stringify(purged)),
        (error) => console.error("[purge] failed:", String(error)),
      ),
    );
    ctx.waitUntil(
      sendDailyDigests(createDb(env.DB), createMailer(env), env.APP_ORIGIN || "https://storyweave.app").then(
        (sent) => console.log("[digest]", JSON.stringify(sent)),
        (error) => console.error("[digest] failed:", String(error)),
      ),
    );
  },
} satisfies ExportedHandler<Env>;
