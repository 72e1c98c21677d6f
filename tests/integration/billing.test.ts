import { env } from "cloudflare:workers";
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import { call, registerUser, signInAdmin } from "./helpers";

const SK = "sk_test_fake_secret_key_123";
const PK = "pk_test_fake_publishable_key_123";
const WHSEC = "whsec_fake_signing_secret_123";
const stripeBase = () => env.STRIPE_API_BASE!;

async function adminToken() {
  return (await signInAdmin()).token;
}

/** The fake's test control: completes (pays) a checkout session as the hosted page would. */
async function pay(sessionId: string) {
  const res = await fetch(`${stripeBase()}/__complete/${sessionId}`, { method: "POST" });
  expect(res.status).toBe(200);
  return res.json() as Promise<any>;
}

async function checkout(token: string) {
  const res = await call("POST", "/api/subscription/create-checkout-session", { token });
  expect(res.status, res.text).toBe(200);
  return res.json as { url: string; sessionId: string };
}

async function signed(event: Record<string, unknown>, secret = WHSEC) {
  const payload = JSON.stringify(event);
  const stripe = new Stripe(SK, { httpClient: Stripe.createFetchHttpClient() });
  const header = await stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  return { payload, header };
}

async function postWebhook(event: Record<string, unknown>, secret?: string) {
  const { payload, header } = await signed(event, secret);
  return call("POST", "/api/subscription/webhook", {
    rawBody: payload,
    headers: { "Stripe-Signature": header, "Content-Type": "application/json" },
  });
}

const userRow = (id: number) =>
  env.DB.prepare("SELECT subscription_tier, subscription_end_date, stripe_subscription_id FROM users WHERE id = ?").bind(id).first<any>();

describe("without payment keys", () => {
  it("checkout answers 503 'Payments are not configured'", async () => {
    await env.DB.prepare("DELETE FROM app_config WHERE key LIKE 'secret:STRIPE%'").run();
    const writer = await registerUser();
    const res = await call("POST", "/api/subscription/create-checkout-session", { token: writer.token });
    expect(res).toMatchObject({ status: 503, json: { error: "Payments are not configured" } });
    expect((await call("GET", "/api/config/stripe-status", { token: await adminToken() })).json).toMatchObject({
      configured: false,
      mode: null,
    });
  });
});

describe("payment keys", () => {
  it("are admin only, validated as a matching pair, stored encrypted and never returned", async () => {
    const token = await adminToken();
    const writer = await registerUser();
    expect((await call("POST", "/api/config/stripe-keys", { body: { secretKey: SK, publishableKey: PK } })).status).toBe(401);
    expect(
      (await call("POST", "/api/config/stripe-keys", { token: writer.token, body: { secretKey: SK, publishableKey: PK } })).status,
    ).toBe(403);
    const post = (body: unknown) => call("POST", "/api/config/stripe-keys", { token, body });
    expect((await post({ secretKey: SK, publishableKey: " " })).json).toEqual({ error: "Please enter both Stripe keys" });
    expect((await post({ secretKey: SK, publishableKey: "pk_live_abc" })).json).toEqual({
      error: "Both keys must be test keys or both live keys",
    });
    expect((await post({ secretKey: "rk_test_abc", publishableKey: PK })).json).toEqual({
      error: "The secret key must start with sk_test_ or sk_live_",
    });
    expect((await post({ secretKey: SK, publishableKey: PK, webhookSecret: "nope" })).json).toEqual({
      error: "The webhook signing secret must start with whsec_",
    });

    const saved = await post({ secretKey: SK, publishableKey: PK, webhookSecret: WHSEC });
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ success: true, configured: true, mode: "test", webhookConfigured: true });
    const status = await call("GET", "/api/config/stripe-status", { token });
    expect(status.json).toEqual({ configured: true, mode: "test", source: "admin", webhookConfigured: true });
    for (const text of [saved.text, status.text]) expect(text).not.toMatch(/sk_test_fake|pk_test_fake|whsec_fake/);
    const rows = await env.DB.prepare("SELECT value FROM app_config WHERE key LIKE 'secret:STRIPE%'").all<{ value: string }>();
    expect(rows.results).toHaveLength(3);
    for (const r of rows.results) expect(r.value).toMatch(/^v1\./);
  });
});

describe("with payment keys", () => {
  beforeAll(async () => {
    const res = await call("POST", "/api/config/stripe-keys", {
      token: await adminToken(),
      body: { secretKey: SK, publishableKey: PK, webhookSecret: WHSEC },
    });
    expect(res.status).toBe(200);
  });

  it("checkout returns the hosted URL for a $9.99/month subscription back to /account and /upgrade", async () => {
    const writer = await registerUser();
    const { url, sessionId } = await checkout(writer.token);
    expect(url).toBe(`${stripeBase()}/checkout/${sessionId}`);
    const state = await (await fetch(`${stripeBase()}/__state`)).json<any>();
    const session = state.sessions.find((s: any) => s.id === sessionId);
    expect(session).toMatchObject({
      mode: "subscription",
      client_reference_id: String(writer.user.id),
      amount_total: 999,
      currency: "usd",
      success_url: "http://storyweave.test/account?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://storyweave.test/upgrade",
    });
    expect((await call("POST", "/api/subscription/create-checkout-session")).status).toBe(401);
  });

  it("upgrade is verified with Stripe, idempotent, and refuses unpaid or someone else's session", async () => {
    const writer = await registerUser();
    const { sessionId } = await checkout(writer.token);
    const unpaid = await call("POST", "/api/subscription/upgrade", { token: writer.token, body: { session_id: sessionId } });
    expect(unpaid).toMatchObject({ status: 400, json: { error: "Payment has not been completed yet" } });

    await pay(sessionId);
    const other = await registerUser();
    const stolen = await call("POST", "/api/subscription/upgrade", { token: other.token, body: { session_id: sessionId } });
    expect(stolen).toMatchObject({ status: 403, json: { error: "This checkout belongs to another account" } });
    expect((await userRow(other.user.id)).subscription_tier).toBe("free");

    const first = await call("POST", "/api/subscription/upgrade", { token: writer.token, body: { session_id: sessionId } });
    expect(first.status).toBe(200);
    expect(first.json.subscriptionTier).toBe("premium");
    const end = Date.parse(first.json.subscriptionEndDate);
    expect(end).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    const again = await call("POST", "/api/subscription/upgrade", { token: writer.token, body: { session_id: sessionId } });
    expect(again.json.subscriptionEndDate).toBe(first.json.subscriptionEndDate);
    const history = await env.DB.prepare(
      "SELECT tier, payment_method, payment_amount, external_id FROM subscription_history WHERE user_id = ?",
    )
      .bind(writer.user.id)
      .all();
    expect(history.results).toEqual([{ tier: "premium", payment_method: "stripe", payment_amount: 9.99, external_id: sessionId }]);

    // No second subscription while Premium.
    const twice = await call("POST", "/api/subscription/create-checkout-session", { token: writer.token });
    expect(twice).toMatchObject({ status: 400, json: { error: "You already have Premium" } });

    // Premium shows in limits at once.
    for (let i = 0; i < 4; i++)
      expect((await call("POST", "/api/timelines", { token: writer.token, body: { title: `T${i}` } })).status).toBe(201);

    expect(
      (await call("POST", "/api/subscription/upgrade", { token: writer.token, body: { session_id: "cs_test_unknown" } })).json,
    ).toEqual({ error: "Unknown checkout session" });
    expect((await call("POST", "/api/subscription/upgrade", { token: writer.token, body: {} })).json).toEqual({
      error: "session_id is required",
    });
  });

  it("downgrade cancels the Stripe subscription and records it", async () => {
    const writer = await registerUser();
    const { sessionId } = await checkout(writer.token);
    await pay(sessionId);
    await call("POST", "/api/subscription/upgrade", { token: writer.token, body: { session_id: sessionId } });
    const subscriptionId = (await userRow(writer.user.id)).stripe_subscription_id;
    expect(subscriptionId).toMatch(/^sub_/);

    const res = await call("POST", "/api/subscription/downgrade", { token: writer.token });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ subscriptionTier: "free", subscriptionEndDate: null });
    const state = await (await fetch(`${stripeBase()}/__state`)).json<any>();
    expect(state.subscriptions.find((s: any) => s.id === subscriptionId).status).toBe("canceled");
    expect(await userRow(writer.user.id)).toMatchObject({ subscription_tier: "free", stripe_subscription_id: null });
  });

  it("an end date in the past means free, in limits and in what the API reports", async () => {
    const writer = await registerUser();
    await env.DB.prepare("UPDATE users SET subscription_tier = 'premium', subscription_end_date = ? WHERE id = ?")
      .bind(new Date(Date.now() - 60_000).toISOString(), writer.user.id)
      .run();
    expect((await call("GET", "/api/auth/me", { token: writer.token })).json.subscriptionTier).toBe("free");
    for (let i = 0; i < 3; i++) await call("POST", "/api/timelines", { token: writer.token, body: { title: `T${i}` } });
    expect((await call("POST", "/api/timelines", { token: writer.token, body: { title: "4th" } })).status).toBe(403);
  });
});

describe("webhook", () => {
  let user: Awaited<ReturnType<typeof registerUser>>;
  let subscriptionId: string;
  beforeAll(async () => {
    await call("POST", "/api/config/stripe-keys", {
      token: await adminToken(),
      body: { secretKey: SK, publishableKey: PK, webhookSecret: WHSEC },
    });
    user = await registerUser();
    const { sessionId } = await checkout(user.token);
    await pay(sessionId);
    const res = await postWebhook({
      id: "evt_checkout_1",
      object: "event",
      type: "checkout.session.completed",
      data: { object: (await (await fetch(`${stripeBase()}/__state`)).json<any>()).sessions.find((s: any) => s.id === sessionId) },
    });
    expect(res.status, res.text).toBe(200);
    subscriptionId = (await userRow(user.user.id)).stripe_subscription_id;
  });

  it("checkout.session.completed grants premium", async () => {
    expect((await userRow(user.user.id)).subscription_tier).toBe("premium");
    expect(subscriptionId).toMatch(/^sub_/);
  });

  it("refuses a bad signature with 400 and changes nothing", async () => {
    const res = await postWebhook(
      { id: "evt_forged", object: "event", type: "customer.subscription.deleted", data: { object: { id: subscriptionId } } },
      "whsec_wrong",
    );
    expect(res).toMatchObject({ status: 400, json: { error: "Invalid webhook signature" } });
    const missing = await call("POST", "/api/subscription/webhook", { rawBody: "{}" });
    expect(missing.status).toBe(400);
    expect((await userRow(user.user.id)).subscription_tier).toBe("premium");
  });

  it("invoice.paid extends the end date; a replay is harmless", async () => {
    const end = Math.floor(Date.now() / 1000) + 60 * 86_400;
    const event = {
      id: "evt_invoice_1",
      object: "event",
      type: "invoice.paid",
      data: { object: { id: "in_1", subscription: subscriptionId, amount_paid: 999, lines: { data: [{ period: { end } }] } } },
    };
    expect((await postWebhook(event)).status).toBe(200);
    expect(Date.parse((await userRow(user.user.id)).subscription_end_date)).toBe(end * 1000);
    const replay = await postWebhook(event);
    expect(replay.json).toEqual({ received: true, duplicate: true });
    const renewals = await env.DB.prepare("SELECT COUNT(*) AS n FROM subscription_history WHERE user_id = ? AND status = 'renewed'")
      .bind(user.user.id)
      .first<{ n: number }>();
    expect(renewals?.n).toBe(1);
  });

  it("customer.subscription.updated follows the period end while active", async () => {
    const end = Math.floor(Date.now() / 1000) + 90 * 86_400;
    const res = await postWebhook({
      id: "evt_updated_1",
      object: "event",
      type: "customer.subscription.updated",
      data: { object: { id: subscriptionId, status: "active", items: { data: [{ current_period_end: end }] } } },
    });
    expect(res.status, res.text).toBe(200);
    expect(await userRow(user.user.id)).toMatchObject({
      subscription_tier: "premium",
      subscription_end_date: new Date(end * 1000).toISOString(),
    });
    const past = await postWebhook({
      id: "evt_updated_2",
      object: "event",
      type: "customer.subscription.updated",
      data: { object: { id: subscriptionId, status: "past_due", items: { data: [{ current_period_end: end }] } } },
    });
    expect(past.status).toBe(200);
    expect((await userRow(user.user.id)).subscription_tier).toBe("premium");
  });

  it("invoice.payment_failed keeps the paid period; customer.subscription.deleted ends premium", async () => {
    const failed = await postWebhook({
      id: "evt_failed_1",
      object: "event",
      type: "invoice.payment_failed",
      data: { object: { id: "in_2", subscription: subscriptionId } },
    });
    expect(failed.status).toBe(200);
    expect((await userRow(user.user.id)).subscription_tier).toBe("premium");
    const deleted = await postWebhook({
      id: "evt_deleted_1",
      object: "event",
      type: "customer.subscription.deleted",
      data: { object: { id: subscriptionId, status: "canceled" } },
    });
    expect(deleted.status).toBe(200);
    expect(await userRow(user.user.id)).toMatchObject({ subscription_tier: "free", stripe_subscription_id: null });
  });
});

describe("webhook failure, then Stripe's retry", () => {
  it("a handler that fails answers 5xx and records nothing; the retry applies exactly once", async () => {
    await call("POST", "/api/config/stripe-keys", {
      token: await adminToken(),
      body: { secretKey: SK, publishableKey: PK, webhookSecret: WHSEC },
    });
    // A paid checkout whose account does not exist here yet (a real condition: e.g. a restored database).
    const payer = await registerUser();
    const { sessionId } = await checkout(payer.token);
    await pay(sessionId);
    const state = await (await fetch(`${stripeBase()}/__state`)).json<any>();
    const paid = state.sessions.find((s: any) => s.id === sessionId);
    const next = await env.DB.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'users'").first<{ seq: number }>();
    const futureId = next!.seq + 1;
    const event = {
      id: `evt_retry_${sessionId}`,
      object: "event",
      type: "checkout.session.completed",
      data: { object: { ...paid, client_reference_id: String(futureId) } },
    };

    const failed = await postWebhook(event);
    expect(failed.status).toBe(503);
    expect(failed.json).toEqual({ error: "The webhook event could not be applied yet; it will be retried" });
    const processed = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM processed_webhooks WHERE id = ?").bind(event.id).first<{ n: number }>();
    expect((await processed())?.n).toBe(0);

    // The account appears; Stripe retries the same event (twice, in parallel) and then once more.
    const late = await registerUser();
    expect(late.user.id).toBe(futureId);
    const retries = await Promise.all([postWebhook(event), postWebhook(event)]);
    expect(retries.map((r) => r.status)).toEqual([200, 200]);
    expect(retries.map((r) => r.json.duplicate ?? false).sort()).toEqual([false, true]);
    expect((await postWebhook(event)).json).toEqual({ received: true, duplicate: true });

    expect((await processed())?.n).toBe(1);
    expect((await userRow(futureId)).subscription_tier).toBe("premium");
    const history = await env.DB.prepare("SELECT COUNT(*) AS n FROM subscription_history WHERE external_id = ?")
      .bind(sessionId)
      .first<{ n: number }>();
    expect(history?.n).toBe(1);
  });

  it("confirming the same checkout twice in parallel grants once (user and history in one batch)", async () => {
    const writer = await registerUser();
    const { sessionId } = await checkout(writer.token);
    await pay(sessionId);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call("POST", "/api/subscription/upgrade", { token: writer.token, body: { session_id: sessionId } })),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM subscription_history WHERE external_id = ?")
      .bind(sessionId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
    expect((await userRow(writer.user.id)).subscription_tier).toBe("premium");
  });
});
