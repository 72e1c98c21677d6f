import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORIGIN, TEST_ADMIN, call, markVerified, registerUser, capturedMail, uniqueEmail } from "./helpers";

const INVALID = "This verification link is invalid or has expired.";

const tokenIn = (mail: string) => mail.match(/\/auth\/verify-email\?token=([A-Za-z0-9_-]+)/)?.[1] ?? null;

/** Registers through the API and returns the account with the token from its verification email. */
async function registerWithLink(overrides: { email?: string; password?: string } = {}) {
  let user!: Awaited<ReturnType<typeof registerUser>>;
  const mail = await capturedMail(async () => {
    user = await registerUser(overrides);
  });
  return { ...user, mail, verifyToken: tokenIn(mail) };
}

const verify = (token: string) => call("POST", "/api/auth/verify-email", { body: { token } });

describe("email verification", () => {
  it("registration mails a single-use link to /auth/verify-email and stores only its hash", async () => {
    const u = await registerWithLink();
    expect(u.user.isEmailVerified).toBe(false);
    expect(u.mail).toContain(`to=${u.email}`);
    expect(u.mail).toContain(`${ORIGIN}/auth/verify-email?token=`);
    expect(u.verifyToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const rows = await env.DB.prepare("SELECT token_hash, expires_at FROM verification_tokens WHERE user_id = ?")
      .bind(u.user.id)
      .all<{ token_hash: string; expires_at: string }>();
    expect(rows.results).toHaveLength(1);
    expect(rows.results[0].token_hash).not.toContain(u.verifyToken!);
    // Expires in 24 hours.
    const ttl = Date.parse(rows.results[0].expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(23.9 * 3600_000);
    expect(ttl).toBeLessThanOrEqual(24 * 3600_000);
  });

  it("verifies with the link once; the token is dead afterwards", async () => {
    const u = await registerWithLink();
    const res = await verify(u.verifyToken!);
    expect(res.status).toBe(200);
    expect(res.json.user).toMatchObject({ id: u.user.id, isEmailVerified: true, role: "user" });
    const me = await call("GET", "/api/auth/me", { token: u.token });
    expect(me.json.isEmailVerified).toBe(true);
    const again = await verify(u.verifyToken!);
    expect(again.status).toBe(400);
    expect(again.json).toEqual({ error: INVALID });
  });

  it("refuses an expired token, a wrong token and an empty one (400)", async () => {
    const u = await registerWithLink();
    await env.DB.prepare("UPDATE verification_tokens SET expires_at = ? WHERE user_id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), u.user.id)
      .run();
    const expired = await verify(u.verifyToken!);
    expect(expired.status).toBe(400);
    expect(expired.json.error).toBe(INVALID);
    expect((await verify("not-a-real-token-0123456789")).json).toEqual({ error: INVALID });
    expect((await verify("")).status).toBe(400);
    const me = await call("GET", "/api/auth/me", { token: u.token });
    expect(me.json.isEmailVerified).toBe(false);
  });
});

describe("resend verification", () => {
  it("needs a session (401)", async () => {
    expect((await call("POST", "/api/auth/resend-verification")).status).toBe(401);
  });

  it("mails a new working link, and is throttled per account (429 with Retry-After)", async () => {
    const u = await registerWithLink();
    // The registration email counts: 3 per hour in all.
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      let res!: Awaited<ReturnType<typeof call>>;
      const mail = await capturedMail(async () => {
        res = await call("POST", "/api/auth/resend-verification", { token: u.token });
      });
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ message: "Verification email sent" });
      tokens.push(tokenIn(mail)!);
    }
    expect(new Set([u.verifyToken, ...tokens]).size).toBe(3);
    const limited = await call("POST", "/api/auth/resend-verification", { token: u.token });
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatch(/^Too many verification emails\. Please try again in \d+ minutes?\.$/);
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another account is not affected.
    const other = await registerUser();
    expect((await call("POST", "/api/auth/resend-verification", { token: other.token })).status).toBe(200);
    // The resent link works.
    expect((await verify(tokens[1])).status).toBe(200);
  });

  it("answers 400 once the address is verified", async () => {
    const u = await registerWithLink();
    await verify(u.verifyToken!);
    const res = await call("POST", "/api/auth/resend-verification", { token: u.token });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: "Your email is already verified." });
  });
});

describe("ADMIN_EMAILS needs a verified address", () => {
  it("register → not admin; verify → admin; and admin again on the next login", async () => {
    await env.DB.prepare("DELETE FROM users WHERE lower(email) = ?").bind(TEST_ADMIN.email).run();
    const u = await registerWithLink({ email: "Admin@Example.test", password: TEST_ADMIN.password });
    expect(u.user.role).toBe("user");
    const login = await call("POST", "/api/auth/login", { body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } });
    expect(login.json.user.role).toBe("user");
    expect((await call("GET", "/api/admin/users", { token: u.token })).status).toBe(403);

    const verified = await verify(u.verifyToken!);
    expect(verified.json.user.role).toBe("admin");
    expect((await call("GET", "/api/admin/users", { token: u.token })).status).toBe(200);
    const again = await call("POST", "/api/auth/login", { body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } });
    expect(again.json.user.role).toBe("admin");
  });

  it("a verified listed address becomes admin at login", async () => {
    await env.DB.prepare("DELETE FROM users WHERE lower(email) = ?").bind(TEST_ADMIN.email).run();
    await registerUser(TEST_ADMIN);
    await markVerified(TEST_ADMIN.email);
    const login = await call("POST", "/api/auth/login", { body: { email: TEST_ADMIN.email, password: TEST_ADMIN.password } });
    expect(login.json.user.role).toBe("admin");
  });

  it("an admin whose address is not (or no longer) in ADMIN_EMAILS loses the role at the next login and on verifying", async () => {
    const u = await registerWithLink({ email: uniqueEmail("former-admin") });
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(u.user.id).run();
    const verified = await verify(u.verifyToken!);
    expect(verified.json.user.role).toBe("user");

    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(u.user.id).run();
    const login = await call("POST", "/api/auth/login", { body: { email: u.email, password: u.password } });
    expect(login.status).toBe(200);
    expect(login.json.user.role).toBe("user");
    expect((await call("GET", "/api/admin/users", { token: login.json.token })).status).toBe(403);
  });
});
