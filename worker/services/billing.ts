import { and, eq, notExists } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import Stripe from "stripe";
import type { Db } from "../../db/client";
import { processedWebhooks, subscriptionHistory, type User, users } from "../../db/schema";
import type { Env } from "../env";
import { HttpError, badRequest, forbidden } from "../lib/errors";
import { DAY, nowIso } from "../lib/time";
import { deleteInvitationsBy } from "./invitations";
import { isPremium } from "./plans";
import { getSecrets, setSecret } from "./settings";
import { type PublicUser, toPublicUser } from "./users";

export const PAYMENTS_NOT_CONFIGURED = "Payments are not configured";
export const PREMIUM_PRICE_CENTS = 999;
export const ALREADY_PREMIUM = "You already have Premium";
const STRIPE_SECRETS = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const;

export type StripeMode = "test" | "live";
const modeOf = (key: string): StripeMode | null =>
  key.startsWith("sk_test_") || key.startsWith("pk_test_")
    ? "test"
    : key.startsWith("sk_live_") || key.startsWith("pk_live_")
      ? "live"
      : null;

/** status says only whether keys exist, in which mode, and where they come from. */
export async function stripeStatus(db: Db, env: Env) {
  const s = await getSecrets(db, env, STRIPE_SECRETS);
  const secret = s.STRIPE_SECRET_KEY;
  return {
    configured: Boolean(secret && s.STRIPE_PUBLISHABLE_KEY),
    mode: secret ? modeOf(secret.value) : null,
    source: secret?.source ?? null,
    webhookConfigured: Boolean(s.STRIPE_WEBHOOK_SECRET),
  };
}

/** Both keys required, one mode (sk_test_+pk_test_ or sk_live_+pk_live_); the webhook secret is optional. */
export async function saveStripeKeys(db: Db, env: Env, input: { secretKey: string; publishableKey: string; webhookSecret?: string }) {
  const secretMode = input.secretKey.startsWith("sk_") ? modeOf(input.secretKey) : null;
  const publishableMode = input.publishableKey.startsWith("pk_") ? modeOf(input.publishableKey) : null;
  if (!secretMode) throw badRequest("The secret key must start with sk_test_ or sk_live_");
  if (!publishableMode) throw badRequest("The publishable key must start with pk_test_ or pk_live_");
  if (secretMode !== publishableMode) throw badRequest("Both keys must be test keys or both live keys");
  if (input.webhookSecret && !input.webhookSecret.startsWith("whsec_"))
    throw badRequest("The webhook signing secret must start with whsec_");
  await setSecret(db, env, "STRIPE_SECRET_KEY", input.secretKey);
  await setSecret(db, env, "STRIPE_PUBLISHABLE_KEY", input.publishableKey);
  if (input.webhookSecret) await setSecret(db, env, "STRIPE_WEBHOOK_SECRET", input.webhookSecret);
  return stripeStatus(db, env);
}

/** The official SDK on its fetch client; STRIPE_API_BASE points it elsewhere in tests. */
async function stripeClient(db: Db, env: Env) {
  const s = await getSecrets(db, env, STRIPE_SECRETS);
  if (!s.STRIPE_SECRET_KEY) throw new HttpError(503, PAYMENTS_NOT_CONFIGURED);
  const base = env.STRIPE_API_BASE ? new URL(env.STRIPE_API_BASE) : null;
  const stripe = new Stripe(s.STRIPE_SECRET_KEY.value, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 1,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === "https:" ? 443 : 80),
          protocol: base.protocol.replace(":", "") as "http" | "https",
        }
      : {}),
  });
  return { stripe, webhookSecret: s.STRIPE_WEBHOOK_SECRET?.value ?? null };
}

export const PAYMENT_PROVIDER_FAILED = "The payment provider could not complete the request. Please try again later.";

/** 502 with a generic message; Stripe's own text (account and key details) goes to the server log only. */
function stripeFailure(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  console.error("[billing] Stripe error:", error instanceof Stripe.errors.StripeError ? `${error.type} ${error.message}` : String(error));
  return new HttpError(502, PAYMENT_PROVIDER_FAILED);
}

/** POST /api/subscription/create-checkout-session: Premium at $9.99/month, subscription mode. */
export async function createCheckout(db: Db, env: Env, user: User, origin: string) {
  const { stripe } = await stripeClient(db, env);
  // A second subscription would bill twice: Premium members manage theirs from /account.
  if (isPremium(user)) throw badRequest(ALREADY_PREMIUM);
  try {
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      client_reference_id: String(user.id),
      ...(user.stripeCustomerId ? { customer: user.stripeCustomerId } : { customer_email: user.email }),
      line_items: [
        {
          quantity: 1,
          price_data: {
            currency: "usd",
            unit_amount: PREMIUM_PRICE_CENTS,
            recurring: { interval: "month" },
            product_data: { name: "StoryWeave Premium" },
          },
        },
      ],
      metadata: { userId: String(user.id) },
      success_url: `${origin}/account?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${origin}/upgrade`,
    });
    return { url: session.url, sessionId: session.id };
  } catch (error) {
    throw stripeFailure(error);
  }
}

type SubscriptionLike = { id: string; items?: { data?: { current_period_end?: number }[] }; current_period_end?: number };

/** Newer API versions keep the period end on the items; older ones on the subscription. */
function periodEnd(subscription: SubscriptionLike | null): string {
  const end = subscription?.items?.data?.[0]?.current_period_end ?? subscription?.current_period_end;
  return end ? new Date(end * 1000).toISOString() : new Date(Date.now() + 31 * DAY).toISOString();
}

/**
 * The two writes of a paid checkout, for one batch (a transaction): premium on the user, then the
 * history row. The user update runs only while no history row holds this checkout's id, and the
 * insert skips a known id, so the same checkout twice (or raced) changes nothing the second time.
 */
function checkoutGrantWrites(db: Db, userId: number, sessionId: string, customer: string | null, subscription: SubscriptionLike | null) {
  const endDate = periodEnd(subscription);
  const now = nowIso();
  return [
    db
      .update(users)
      .set({
        subscriptionTier: "premium",
        subscriptionEndDate: endDate,
        stripeCustomerId: customer,
        stripeSubscriptionId: subscription?.id ?? null,
        updatedAt: now,
      })
      .where(
        and(
          eq(users.id, userId),
          notExists(
            db.select({ id: subscriptionHistory.id }).from(subscriptionHistory).where(eq(subscriptionHistory.externalId, sessionId)),
          ),
        ),
      ),
    db
      .insert(subscriptionHistory)
      .values({
        userId,
        tier: "premium",
        startDate: now,
        endDate,
        paymentAmount: PREMIUM_PRICE_CENTS / 100,
        paymentMethod: "stripe",
        status: "active",
        externalId: sessionId,
      })
      .onConflictDoNothing(),
  ] as const;
}

/** POST /api/subscription/upgrade {session_id}: verified with Stripe, its owner and its payment state. */
export async function confirmUpgrade(db: Db, env: Env, user: User, sessionId: string): Promise<PublicUser> {
  const { stripe } = await stripeClient(db, env);
  // Stripe ids are plain ASCII words: anything else cannot be one (and must not reach the SDK's URL).
  if (!/^[\w-]{1,255}$/.test(sessionId)) throw badRequest("Unknown checkout session");
  let session: Stripe.Checkout.Session;
  try {
    session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ["subscription"] });
  } catch (error) {
    if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) throw badRequest("Unknown checkout session");
    throw stripeFailure(error);
  }
  if (session.client_reference_id !== String(user.id)) throw forbidden("This checkout belongs to another account");
  if (session.status !== "complete" || (session.payment_status !== "paid" && session.payment_status !== "no_payment_required")) {
    throw badRequest("Payment has not been completed yet");
  }
  const subscription = typeof session.subscription === "object" ? (session.subscription as unknown as SubscriptionLike | null) : null;
  const customer = typeof session.customer === "string" ? session.customer : (session.customer?.id ?? null);
  await db.batch([...checkoutGrantWrites(db, user.id, session.id, customer, subscription)]);
  const updated = await db.select().from(users).where(eq(users.id, user.id)).get();
  return toPublicUser(updated ?? user);
}

/** Cancels a Stripe subscription at once; one already gone at Stripe counts as cancelled. */
export async function cancelSubscription(db: Db, env: Env, subscriptionId: string) {
  const { stripe } = await stripeClient(db, env);
  try {
    await stripe.subscriptions.cancel(subscriptionId);
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404)) throw stripeFailure(error);
  }
}

/** POST /api/subscription/downgrade: cancels the Stripe subscription when there is one. */
export async function downgrade(db: Db, env: Env, user: User): Promise<PublicUser> {
  if (user.stripeSubscriptionId) await cancelSubscription(db, env, user.stripeSubscriptionId);
  const now = nowIso();
  const [rows] = await db.batch([
    db
      .update(users)
      .set({ subscriptionTier: "free", subscriptionEndDate: null, stripeSubscriptionId: null, updatedAt: now })
      .where(eq(users.id, user.id))
      .returning(),
    db.insert(subscriptionHistory).values({
      userId: user.id,
      tier: "free",
      startDate: now,
      paymentAmount: 0,
      paymentMethod: user.stripeSubscriptionId ? "stripe" : isPremium(user) ? "manual" : "none",
      status: "cancelled",
    }),
    // Sharing is premium: invitations still waiting lapse with the plan.
    deleteInvitationsBy(db, user.id),
  ]);
  return toPublicUser(rows[0]);
}

export const WEBHOOK_NOT_APPLIED = "The webhook event could not be applied yet; it will be retried";

/**
 * POST /api/subscription/webhook: signature verified with the signing secret (real scheme). The event
 * id is recorded as processed in the same batch (one transaction) as the handler's writes, and only
 * when the handler got that far: a handler that fails answers 5xx, so Stripe retries, and the retry
 * applies the event once. A replay (or a delivery racing another) finds the id and changes nothing.
 */
export async function handleWebhook(db: Db, env: Env, payload: string, signature: string | null) {
  const { stripe, webhookSecret } = await stripeClient(db, env);
  if (!webhookSecret) throw new HttpError(503, "Webhook signing secret is not configured");
  if (!signature) throw badRequest("Missing Stripe-Signature header");
  let event: Stripe.Event;
  try {
    event = await stripe.webhooks.constructEventAsync(payload, signature, webhookSecret, undefined, Stripe.createSubtleCryptoProvider());
  } catch {
    throw badRequest("Invalid webhook signature");
  }
  const duplicate = { received: true, duplicate: true };
  const seen = await db.select({ id: processedWebhooks.id }).from(processedWebhooks).where(eq(processedWebhooks.id, event.id)).get();
  if (seen) return duplicate;

  let writes: BatchItem<"sqlite">[];
  try {
    writes = await webhookWrites(db, stripe, event);
  } catch (error) {
    console.error(`[billing] webhook ${event.id} (${event.type}) failed:`, error);
    throw new HttpError(503, WEBHOOK_NOT_APPLIED);
  }
  try {
    // The plain insert fails on a known id and rolls the whole batch back: exactly once.
    await db.batch([db.insert(processedWebhooks).values({ id: event.id }), ...writes]);
  } catch (error) {
    if (/UNIQUE.*processed_webhooks/.test(String(error))) return duplicate;
    console.error(`[billing] webhook ${event.id} (${event.type}) could not be saved:`, error);
    throw new HttpError(503, WEBHOOK_NOT_APPLIED);
  }
  return { received: true, type: event.type };
}

class WebhookNotApplicable extends Error {}

/** What an event changes, as statements for the webhook's batch; throws when it cannot be applied (yet). */
async function webhookWrites(db: Db, stripe: Stripe, event: Stripe.Event): Promise<BatchItem<"sqlite">[]> {
  const object = event.data.object as unknown as Record<string, any>;
  const subscriptionIdOf = (o: Record<string, any>) =>
    (typeof o.subscription === "string" ? o.subscription : o.subscription?.id) ?? o.parent?.subscription_details?.subscription ?? null;
  const userBySubscription = async (subscriptionId: string | null) =>
    subscriptionId ? db.select().from(users).where(eq(users.stripeSubscriptionId, subscriptionId)).get() : undefined;
  const history = (userId: number, tier: string, status: string, endDate: string | null, amount: number, externalId: string) =>
    db
      .insert(subscriptionHistory)
      .values({ userId, tier, startDate: nowIso(), endDate, paymentAmount: amount, paymentMethod: "stripe", status, externalId })
      .onConflictDoNothing();
  const toFree = (userId: number) =>
    db
      .update(users)
      .set({ subscriptionTier: "free", subscriptionEndDate: null, stripeSubscriptionId: null, updatedAt: nowIso() })
      .where(eq(users.id, userId));
  const lapse = (userId: number) => deleteInvitationsBy(db, userId);

  switch (event.type) {
    case "checkout.session.completed": {
      const userId = Number(object.client_reference_id);
      if (!Number.isInteger(userId) || userId <= 0 || object.payment_status === "unpaid") return [];
      // A paid checkout for an account this database does not have (yet): fail, so Stripe retries.
      const owner = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).get();
      if (!owner) throw new WebhookNotApplicable(`checkout ${object.id}: no user ${userId}`);
      const subscriptionId = subscriptionIdOf(object);
      const subscription = subscriptionId ? ((await stripe.subscriptions.retrieve(subscriptionId)) as unknown as SubscriptionLike) : null;
      return [...checkoutGrantWrites(db, userId, object.id, typeof object.customer === "string" ? object.customer : null, subscription)];
    }
    case "invoice.paid":
    case "invoice.payment_succeeded": {
      const user = await userBySubscription(subscriptionIdOf(object));
      const end = object.lines?.data?.[0]?.period?.end;
      if (!user || !end) return [];
      const endDate = new Date(end * 1000).toISOString();
      return [
        db
          .update(users)
          .set({ subscriptionTier: "premium", subscriptionEndDate: endDate, updatedAt: nowIso() })
          .where(eq(users.id, user.id)),
        history(user.id, "premium", "renewed", endDate, (object.amount_paid ?? PREMIUM_PRICE_CENTS) / 100, object.id),
      ];
    }
    case "invoice.payment_failed": {
      // Premium lasts until the paid period ends; Stripe retries and then cancels.
      const user = await userBySubscription(subscriptionIdOf(object));
      return user ? [history(user.id, "premium", "payment_failed", user.subscriptionEndDate, 0, object.id)] : [];
    }
    case "customer.subscription.updated": {
      const user = await userBySubscription(object.id);
      if (!user) return [];
      if (["canceled", "unpaid", "incomplete_expired"].includes(object.status)) return [toFree(user.id), lapse(user.id)];
      return [
        db
          .update(users)
          .set({ subscriptionEndDate: periodEnd(object as SubscriptionLike), updatedAt: nowIso() })
          .where(eq(users.id, user.id)),
      ];
    }
    case "customer.subscription.deleted": {
      const user = await userBySubscription(object.id);
      return user ? [toFree(user.id), lapse(user.id), history(user.id, "free", "cancelled", null, 0, event.id)] : [];
    }
    default:
      return [];
  }
}
