import { describe, expect, it } from "vitest";
import { call, createTimeline, registerUser, signInAdmin } from "./helpers";

const admin = signInAdmin;

describe("admin users API", () => {
  it("refuses anonymous (401) and non-admins (403)", async () => {
    const writer = await registerUser();
    for (const [method, path, body] of [
      ["GET", "/api/admin/users", undefined],
      ["POST", `/api/admin/users/${writer.user.id}/premium`, { premium: true }],
    ] as const) {
      expect((await call(method, path, { body })).status).toBe(401);
      const res = await call(method, path, { token: writer.token, body });
      expect(res.status).toBe(403);
      expect(res.json).toEqual({ error: "Admin access required" });
    }
  });

  it("lists users with role, plan, end date and last login", async () => {
    const a = await admin();
    const writer = await registerUser({ name: "Listed Writer" });
    const res = await call("GET", "/api/admin/users", { token: a.token });
    expect(res.status).toBe(200);
    const row = res.json.find((u: any) => u.id === writer.user.id);
    expect(row).toMatchObject({
      name: "Listed Writer",
      email: writer.email,
      role: "user",
      subscriptionTier: "free",
      subscriptionEndDate: null,
    });
    expect(row).toHaveProperty("lastLogin");
    expect(row).not.toHaveProperty("hashedPassword");
    expect(JSON.stringify(res.json)).not.toMatch(/hashed|reset_?password|stripe/i);
    expect(res.json.some((u: any) => u.role === "admin")).toBe(true);
  });

  it("grants and removes premium, visible in limits at once, and records history", async () => {
    const a = await admin();
    const writer = await registerUser();
    for (let i = 0; i < 3; i++) await createTimeline(writer.token, { title: `T${i}` });
    expect((await call("POST", "/api/timelines", { token: writer.token, body: { title: "Fourth" } })).status).toBe(403);

    const granted = await call("POST", `/api/admin/users/${writer.user.id}/premium`, { token: a.token, body: { premium: true } });
    expect(granted.status).toBe(200);
    expect(granted.json).toMatchObject({ id: writer.user.id, subscriptionTier: "premium" });
    expect((await call("GET", "/api/auth/me", { token: writer.token })).json.subscriptionTier).toBe("premium");
    expect((await call("POST", "/api/timelines", { token: writer.token, body: { title: "Fourth" } })).status).toBe(201);

    const removed = await call("POST", `/api/admin/users/${writer.user.id}/premium`, { token: a.token, body: { premium: false } });
    expect(removed.json.subscriptionTier).toBe("free");
    expect((await call("POST", "/api/timelines", { token: writer.token, body: { title: "Fifth" } })).status).toBe(403);

    const { env } = await import("cloudflare:workers");
    const history = await env.DB.prepare("SELECT tier, payment_method, status FROM subscription_history WHERE user_id = ? ORDER BY id")
      .bind(writer.user.id)
      .all();
    expect(history.results).toEqual([
      { tier: "premium", payment_method: "admin", status: "active" },
      { tier: "free", payment_method: "admin", status: "cancelled" },
    ]);
  });

  it("answers bad input and unknown users clearly", async () => {
    const a = await admin();
    expect((await call("POST", "/api/admin/users/999999/premium", { token: a.token, body: { premium: true } })).json).toEqual({
      error: "User not found",
    });
    expect((await call("POST", "/api/admin/users/abc/premium", { token: a.token, body: { premium: true } })).status).toBe(404);
    const bad = await call("POST", "/api/admin/users/1/premium", { token: a.token, body: { premium: "yes" } });
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: "premium must be true or false" });
  });
});
