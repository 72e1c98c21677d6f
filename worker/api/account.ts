import { Hono } from "hono";
import { z } from "zod";
import { NotifyEmailSchema, RegisterSchema, dailyGoalWords, limits, messages } from "../../db/domain/validation";
import { clearSessionCookie } from "../lib/cookies";
import { createMailer } from "../lib/mailer";
import * as account from "../services/account";
import { accountExportFilename, exportAccount } from "../services/account-export";
import { spend } from "../services/rate-limits";
import { accountAiApi } from "./account-ai";
import { type ApiEnv, currentUser, fileDeps, jsonBody, limiter, requireAuth } from "./context";

/** the product's rules for a name and a new password, as at registration. */
export const UpdateAccountSchema = z
  .object({
    name: RegisterSchema.shape.name.optional(),
    dailyGoalWords: dailyGoalWords.optional(),
    notifyEmail: NotifyEmailSchema.optional(),
  })
  // An empty body is a missing name, as before the goal existed.
  .refine((v) => v.name !== undefined || v.dailyGoalWords !== undefined || v.notifyEmail !== undefined, { message: messages.name });
const typedPassword = z.string().max(limits.passwordMax).optional();
export const ChangePasswordSchema = z.object({ currentPassword: typedPassword, newPassword: RegisterSchema.shape.password });
export const DeleteAccountSchema = z.object({ password: typedPassword });

const accountDeps = (c: Parameters<typeof fileDeps>[0] & { executionCtx: { waitUntil(p: Promise<unknown>): void } }) => ({
  ...fileDeps(c),
  secret: c.env.APP_SECRET,
  env: c.env,
  mailer: createMailer(c.env),
  defer: (p: Promise<unknown>) => c.executionCtx.waitUntil(p),
});

/** The signed-in writer's own account. */
export const accountApi = new Hono<ApiEnv>()
  .use(requireAuth)
  .route("/ai", accountAiApi)
  .get("/export", async (c) => {
    const user = currentUser(c);
    // Every timeline and file at once is the heaviest read there is: a few an hour per writer.
    await spend(limiter(c), "accountExport", String(user.id));
    return c.body(exportAccount(c.var.db, c.env.FILES, user), 200, {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="${accountExportFilename(user)}"`,
      "Cache-Control": "private, no-store",
    });
  })
  .patch("/", jsonBody(UpdateAccountSchema), async (c) => {
    return c.json(await account.updateAccount(c.var.db, currentUser(c), c.req.valid("json")));
  })
  .post("/password", jsonBody(ChangePasswordSchema), async (c) => {
    const user = await account.changePassword(accountDeps(c), limiter(c), currentUser(c), c.var.session!.sessionId, c.req.valid("json"));
    return c.json({ success: true, user });
  })
  .delete("/", jsonBody(DeleteAccountSchema), async (c) => {
    const result = await account.deleteAccount(
      accountDeps(c),
      limiter(c),
      currentUser(c),
      c.var.session!.sessionId,
      c.req.valid("json").password,
    );
    c.header("Set-Cookie", clearSessionCookie(c.req.raw));
    return c.json(result);
  });
