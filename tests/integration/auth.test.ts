import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/lib/crypto";
import { ORIGIN, call, registerUser, uniqueEmail } from "./helpers";

describe("register", () => {
  it("creates the account, answers {token, user} and sets an HttpOnly session cookie", async () => {
    const email = uniqueEmail();
    const res = await call("POST", "/api/auth/register", {
      body: { name: "  Ada Lovelace ", email: email.toUpperCase(), password: "secret-pass" },
    });
    expect(res.status).toBe(201);
    expect(res.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.json.user).toMatchObject({
      email,
      name: "Ada Lovelace",
      role: "user",
      subscriptionTier: "free",
      isEmailVerified: false,
    });
    expect(res.json.user).not.toHaveProperty("hashedPassword");
    expect(res.json.user.lastLogin).toBeTruthy();
    const cookie = res.headers.get("Set-Cookie")!;
    expect(cookie).toContain("sw_session=");
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Lax");

    const row = await env.DB.prepare("SELECT hashed_password FROM users WHERE email = ?").bind(email).first<{ hashed_password: string }>();
    expect(row!.hashed_password).toMatch(/^pbkdf2-sha256\$100000\$/);
    // Only the hash of the session token is stored.
    const stored = await env.DB.prepare("SELECT id FROM sessions WHERE id = ?")
      .bind(await sha256Hex(res.json.token))
      .first();
    expect(stored).not.toBeNull();
    const raw = await env.DB.prepare("SELECT id FROM sessions WHERE id = ?").bind(res.json.token).first();
    expect(raw).toBeNull();
  });

  it("rejects invalid input with the product's messages", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "A", email: uniqueEmail(), password: "secret1" }, "Name must be at least 2 characters"],
      [{ name: "Ada", email: "not-an-email", password: "secret1" }, "Please enter a valid email address"],
      [{ name: "Ada", email: uniqueEmail(), password: "12345" }, "Password must be at least 6 characters"],
      [{ name: "Ada", password: "secret1" }, "Please enter a valid email address"],
      [{ name: "x".repeat(101), email: uniqueEmail(), password: "secret1" }, "Name must be at most 100 characters"],
      [{ name: "Ada", email: uniqueEmail(), password: "p".repeat(129) }, "Password must be at most 128 characters"],
    ];
    for (const [body, error] of cases) {
      const res = await call("POST", "/api/auth/register", { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toEqual({ error });
    }
  });

  it("refuses a second account for the same email, whatever its case (409)", async () => {
    const { email } = await registerUser();
    const res = await call("POST", "/api/auth/register", {
      body: { name: "Other", email: email.toUpperCase(), password: "secret-pass" },
    });
    expect(res.status).toBe(409);
    expect(res.json.error).toBe("An account with this email already exists");
  });

  it("does not make an ADMIN_EMAILS address admin before it is verified (verification.test.ts)", async () => {
    await env.DB.prepare("DELETE FROM users WHERE email = 'admin@example.test'").run();
    const res = await call("POST", "/api/auth/register", {
      body: { name: "Admin", email: "Admin@Example.test", password: "secret-pass" },
    });
    expect(res.status).toBe(201);
    expect(res.json.user.role).toBe("user");
    expect(res.json.user.isEmailVerified).toBe(false);
  });
});

describe("login, me and logout", () => {
  it("signs in with the right password, keeps lastLogin, and me answers the user", async () => {
    const u = await registerUser();
    await new Promise((r) => setTimeout(r, 5));
    const res = await call("POST", "/api/auth/login", { body: { email: u.email.toUpperCase(), password: u.password } });
    expect(res.status).toBe(200);
    expect(res.json.user.id).toBe(u.user.id);
    expect(Date.parse(res.json.user.lastLogin)).toBeGreaterThan(Date.parse(u.user.lastLogin));
    const me = await call("GET", "/api/auth/me", { token: res.json.token });
    expect(me.status).toBe(200);
    expect(Object.keys(me.json).sort()).toEqual(
      [
        "avatar",
        "createdAt",
        "email",
        "id",
        "isEmailVerified",
        "lastLogin",
        "name",
        "role",
        "subscriptionEndDate",
        "subscriptionTier",
      ].sort(),
    );
  });

  it("accepts the session cookie as well as the bearer token", async () => {
    const u = await registerUser();
    const cookie = u.cookie!.split(";")[0];
    const me = await call("GET", "/api/auth/me", { headers: { Cookie: cookie } });
    expect(me.status).toBe(200);
    expect(me.json.email).toBe(u.email);
  });

  it("answers 401 with the error field for a wrong password or unknown email", async () => {
    const u = await registerUser();
    const wrong = await call("POST", "/api/auth/login", {
      body: { email: u.email, password: "wrong-pass" },
      headers: { "CF-Connecting-IP": "10.0.0.1" },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toEqual({ error: "Invalid email or password" });
    const unknown = await call("POST", "/api/auth/login", {
      body: { email: uniqueEmail(), password: "wrong-pass" },
      headers: { "CF-Connecting-IP": "10.0.0.1" },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.json).toEqual({ error: "Invalid email or password" });
  });

  it("validates login input", async () => {
    const bad = await call("POST", "/api/auth/login", { body: { email: "nope", password: "secret1" } });
    expect(bad.json).toEqual({ error: "Please enter a valid email address" });
    const short = await call("POST", "/api/auth/login", { body: { email: uniqueEmail(), password: "123" } });
    expect(short.status).toBe(400);
    expect(short.json).toEqual({ error: "Password must be at least 6 characters" });
  });

  it("me is 401 without a token, with a bad token, and after logout", async () => {
    expect((await call("GET", "/api/auth/me")).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: "made-up" })).status).toBe(401);
    const u = await registerUser();
    const out = await call("POST", "/api/auth/logout", { token: u.token });
    expect(out.status).toBe(200);
    expect(out.headers.get("Set-Cookie")).toContain("Max-Age=0");
    const me = await call("GET", "/api/auth/me", { token: u.token });
    expect(me.status).toBe(401);
    expect(me.json).toEqual({ error: "Not authenticated" });
  });

  it("an expired session is refused", async () => {
    const u = await registerUser();
    await env.DB.prepare("UPDATE sessions SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = ?")
      .bind(await sha256Hex(u.token))
      .run();
    expect((await call("GET", "/api/auth/me", { token: u.token })).status).toBe(401);
  });
});

describe("login throttling", () => {
  it("locks an email after 5 failures with 429 and Retry-After, even for the right password", async () => {
    const u = await registerUser();
    for (let i = 0; i < 5; i++) {
      const res = await call("POST", "/api/auth/login", {
        body: { email: u.email, password: "wrong-pass" },
        headers: { "CF-Connecting-IP": `10.1.0.${i}` },
      });
      expect(res.status).toBe(401);
    }
    const locked = await call("POST", "/api/auth/login", {
      body: { email: u.email, password: u.password },
      headers: { "CF-Connecting-IP": "10.1.1.1" },
    });
    expect(locked.status).toBe(429);
    expect(locked.json.error).toMatch(/^Too many failed login attempts\. Please try again in \d+ minutes?\.$/);
    expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it("locks a client address after 20 failures across emails", async () => {
    const ip = `10.2.${Math.floor(Math.random() * 250)}.7`;
    for (let i = 0; i < 20; i++) {
      await call("POST", "/api/auth/login", {
        body: { email: uniqueEmail(), password: "wrong-pass" },
        headers: { "CF-Connecting-IP": ip },
      });
    }
    const u = await registerUser();
    const res = await call("POST", "/api/auth/login", {
      body: { email: u.email, password: u.password },
      headers: { "CF-Connecting-IP": ip },
    });
    expect(res.status).toBe(429);
  });

  it("a success clears the email's failures", async () => {
    const u = await registerUser();
    for (let i = 0; i < 4; i++) {
      await call("POST", "/api/auth/login", {
        body: { email: u.email, password: "wrong-pass" },
        headers: { "CF-Connecting-IP": "10.3.0.1" },
      });
    }
    expect((await call("POST", "/api/auth/login", { body: u, headers: { "CF-Connecting-IP": "10.3.0.1" } })).status).toBe(200);
    for (let i = 0; i < 4; i++) {
      await call("POST", "/api/auth/login", {
        body: { email: u.email, password: "wrong-pass" },
        headers: { "CF-Connecting-IP": "10.3.0.2" },
      });
    }
    expect((await call("POST", "/api/auth/login", { body: u, headers: { "CF-Connecting-IP": "10.3.0.2" } })).status).toBe(200);
  });
});

describe("password reset", () => {
  async function resetTokenFor(email: string) {
    const logs: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void logs.push(args.join(" "));
    try {
      const res = await call("POST", "/api/auth/forgot-password", { body: { email } });
      expect(res.status).toBe(200);
    } finally {
      console.log = original;
    }
    const link = logs.join("\n").match(/\/auth\/reset-password\?token=([A-Za-z0-9_-]+)/);
    return link?.[1] ?? null;
  }

  it("answers alike for known and unknown emails, and mails a link only to the known one", async () => {
    const u = await registerUser();
    const known = await call("POST", "/api/auth/forgot-password", { body: { email: u.email } });
    const unknown = await call("POST", "/api/auth/forgot-password", { body: { email: uniqueEmail() } });
    expect(known.status).toBe(unknown.status);
    expect(known.json).toEqual(unknown.json);
    expect(known.json.message).toBe("If an account exists with the email you provided, you'll receive an email with a reset token.");
    expect(await resetTokenFor(uniqueEmail())).toBeNull();
    expect(await resetTokenFor(u.email)).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it("resets the password once, revokes old sessions, and signs in with the new one", async () => {
    const u = await registerUser();
    const token = (await resetTokenFor(u.email))!;
    expect((await call("POST", "/api/auth/verify-reset-token", { body: { token } })).json).toEqual({ valid: true });

    const res = await call("POST", "/api/auth/reset-password", { body: { token, password: "brand-new-pass" } });
    expect(res.status).toBe(200);
    expect(res.json.token).toBeTruthy();
    expect(res.json.user.email).toBe(u.email);
    expect((await call("GET", "/api/auth/me", { token: u.token })).status).toBe(401);
    expect((await call("GET", "/api/auth/me", { token: res.json.token })).status).toBe(200);

    const again = await call("POST", "/api/auth/reset-password", { body: { token, password: "another-pass" } });
    expect(again.status).toBe(400);
    expect(again.json.error).toBe("This password reset token is invalid or has expired.");

    expect(
      (
        await call("POST", "/api/auth/login", {
          body: { email: u.email, password: u.password },
          headers: { "CF-Connecting-IP": "10.4.0.1" },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await call("POST", "/api/auth/login", {
          body: { email: u.email, password: "brand-new-pass" },
          headers: { "CF-Connecting-IP": "10.4.0.1" },
        })
      ).status,
    ).toBe(200);
  });

  it("refuses an expired token", async () => {
    const u = await registerUser();
    const token = (await resetTokenFor(u.email))!;
    await env.DB.prepare("UPDATE users SET reset_password_expires = ? WHERE email = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), u.email)
      .run();
    expect((await call("POST", "/api/auth/verify-reset-token", { body: { token } })).json).toEqual({ valid: false });
    const res = await call("POST", "/api/auth/reset-password", { body: { token, password: "brand-new-pass" } });
    expect(res.status).toBe(400);
  });

  it("expires tokens after one hour", async () => {
    const u = await registerUser();
    await resetTokenFor(u.email);
    const row = await env.DB.prepare("SELECT reset_password_expires AS e FROM users WHERE email = ?").bind(u.email).first<{ e: string }>();
    const ms = Date.parse(row!.e) - Date.now();
    expect(ms).toBeGreaterThan(59 * 60_000);
    expect(ms).toBeLessThanOrEqual(60 * 60_000);
  });

  it("validates reset input", async () => {
    const missing = await call("POST", "/api/auth/reset-password", { body: { password: "secret-pass" } });
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe("Missing reset token. Please request a new password reset link.");
    const short = await call("POST", "/api/auth/reset-password", { body: { token: "x".repeat(20), password: "123" } });
    expect(short.json.error).toBe("Password must be at least 6 characters");
    const bad = await call("POST", "/api/auth/forgot-password", { body: { email: "nope" } });
    expect(bad.json.error).toBe("Please enter a valid email address");
  });
});

describe("API safety", () => {
  it("malformed JSON is a 400 with the error shape", async () => {
    const res = await call("POST", "/api/auth/login", { rawBody: "{not json" });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: "Invalid JSON in request body" });
  });

  it("a body over 1 MB is a 413", async () => {
    const res = await call("POST", "/api/auth/login", { rawBody: JSON.stringify({ email: "a".repeat(1_100_000) }) });
    expect(res.status).toBe(413);
    expect(res.json).toEqual({ error: "Request body is too large" });
  });

  it("unknown API paths are a JSON 404", async () => {
    const res = await call("GET", "/api/nope");
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: "Not found" });
  });

  it("refuses cross-site cookie-authenticated mutations but not bearer calls", async () => {
    const u = await registerUser();
    const cookie = u.cookie!.split(";")[0];
    const evil = await call("POST", "/api/auth/logout", { headers: { Cookie: cookie, Origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expect((await call("GET", "/api/auth/me", { headers: { Cookie: cookie } })).status).toBe(200);
    const same = await call("POST", "/api/auth/logout", { headers: { Cookie: cookie, Origin: ORIGIN } });
    expect(same.status).toBe(200);
    const u2 = await registerUser();
    const bearer = await call("POST", "/api/auth/logout", { token: u2.token, headers: { Origin: "https://evil.example" } });
    expect(bearer.status).toBe(200);
  });

  it("sets security headers on API responses", async () => {
    const res = await call("GET", "/api/auth/me");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("Content-Security-Policy")).toContain("frame-ancestors 'none'");
  });
});
