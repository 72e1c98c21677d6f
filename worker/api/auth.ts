import { Hono } from "hono";
import { ForgotPasswordSchema, LoginSchema, RegisterSchema, ResetPasswordSchema } from "../../db/domain/validation";
import { clearSessionCookie, sessionCookie } from "../lib/cookies";
import { createMailer } from "../lib/mailer";
import * as auth from "../services/auth";
import * as emailVerification from "../services/email-verification";
import * as passwordReset from "../services/password-reset";
import { SESSION_TTL_MS, logout } from "../services/sessions";
import { listSignInMethods } from "../services/sign-in-methods";
import { toPublicUser } from "../services/users";
import { type ApiEnv, jsonBody, limiter, requireAuth } from "./context";
import { z } from "zod";

const SESSION_MAX_AGE = SESSION_TTL_MS / 1000;

/** A verification or reset token, as the emailed link carries it. */
export const TokenSchema = z.object({ token: z.string().max(200).default("") });

/** Account emails (verification, sign-in method changes): links to this origin, sent after the answer (waitUntil). */
export const accountMail = (c: {
  req: { url: string };
  env: ApiEnv["Bindings"];
  executionCtx: { waitUntil(p: Promise<unknown>): void };
}) => ({
  origin: new URL(c.req.url).origin,
  mailer: createMailer(c.env),
  defer: (p: Promise<unknown>) => c.executionCtx.waitUntil(p),
});

const deps = (c: { var: ApiEnv["Variables"]; env: ApiEnv["Bindings"] }) => ({
  db: c.var.db,
  secret: c.env.APP_SECRET,
  adminEmails: c.env.ADMIN_EMAILS,
});

export const authApi = new Hono<ApiEnv>()
  .post("/register", jsonBody(RegisterSchema), async (c) => {
    const result = await auth.register(deps(c), c.req.valid("json"), accountMail(c), limiter(c));
    c.header("Set-Cookie", sessionCookie(c.req.raw, result.token, SESSION_MAX_AGE));
    return c.json(result, 201);
  })
  .post("/login", jsonBody(LoginSchema), async (c) => {
    const result = await auth.login(deps(c), c.req.valid("json"), limiter(c));
    c.header("Set-Cookie", sessionCookie(c.req.raw, result.token, SESSION_MAX_AGE));
    return c.json(result);
  })
  .post("/logout", async (c) => {
    if (c.var.token) await logout({ db: c.var.db, room: c.var.room }, c.var.token);
    c.header("Set-Cookie", clearSessionCookie(c.req.raw));
    return c.json({ success: true });
  })
  .get("/me", requireAuth, (c) => {
    return c.json(toPublicUser(c.var.session!.user));
  })
  .get("/methods", requireAuth, async (c) => {
    return c.json(await listSignInMethods(c.var.db, c.var.session!.user));
  })
  .post("/forgot-password", jsonBody(ForgotPasswordSchema), async (c) => {
    const { email } = c.req.valid("json");
    const origin = new URL(c.req.url).origin;
    const result = await passwordReset.requestPasswordReset(
      c.var.db,
      email,
      origin,
      createMailer(c.env),
      (p) => c.executionCtx.waitUntil(p),
      limiter(c),
    );
    return c.json(result);
  })
  .post("/verify-reset-token", jsonBody(TokenSchema), async (c) => {
    const valid = await passwordReset.isResetTokenValid(c.var.db, c.req.valid("json").token);
    return c.json({ valid });
  })
  .post("/verify-email", jsonBody(TokenSchema), async (c) => {
    const user = await emailVerification.verifyEmail(c.var.db, c.req.valid("json").token, c.env.ADMIN_EMAILS);
    return c.json({ user });
  })
  .post("/resend-verification", requireAuth, async (c) => {
    const result = await emailVerification.resendVerificationEmail(c.var.db, c.var.session!.user, accountMail(c), limiter(c));
    return c.json(result);
  })
  .post("/reset-password", jsonBody(ResetPasswordSchema), async (c) => {
    const { token, password } = c.req.valid("json");
    const result = await passwordReset.resetPassword({ ...deps(c), room: c.var.room, mail: accountMail(c) }, token, password);
    if (result.token) c.header("Set-Cookie", sessionCookie(c.req.raw, result.token, SESSION_MAX_AGE));
    return c.json(result);
  });
