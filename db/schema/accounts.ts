import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, now } from "./columns";
// Accounts: writers, their sign-in, sessions, limits, plans, notifications and the admin's settings.

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull(),
    hashedPassword: text("hashed_password").notNull(),
    name: text("name"),
    avatar: text("avatar"),
    isEmailVerified: integer("is_email_verified", { mode: "boolean" }).notNull().default(false),
    role: text("role", { enum: ["user", "admin"] })
      .notNull()
      .default("user"),
    subscriptionTier: text("subscription_tier").notNull().default("free"),
    subscriptionEndDate: text("subscription_end_date"),
    stripeCustomerId: text("stripe_customer_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    // SHA-256 of the single-use reset token (never the token itself).
    resetPasswordToken: text("reset_password_token"),
    resetPasswordExpires: text("reset_password_expires"),
    lastLogin: text("last_login"),
    /** Words a day the writer aims for (null: no daily goal, no streak shown). */
    dailyGoalWords: integer("daily_goal_words"),
    /** How notifications reach the writer by email: each at once, one daily digest, or not at all. */
    notifyEmail: text("notify_email", { enum: ["instant", "daily", "off"] })
      .notNull()
      .default("instant"),
    /** When the last daily digest was mailed (or the writer chose the digest): the next covers what came after. */
    lastDigestAt: text("last_digest_at"),
    createdAt: createdAt(),
    updatedAt: text("updated_at").notNull().default(now),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(sql`lower(${t.email})`),
    index("users_reset_token_idx").on(t.resetPasswordToken),
    index("users_stripe_subscription_idx").on(t.stripeSubscriptionId),
  ],
);

export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    providerId: text("provider_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("oauth_provider_unique").on(t.provider, t.providerId), index("oauth_user_idx").on(t.userId)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 (hex) of the opaque token handed to the client.
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: text("expires_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull().default(now),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

// One row per verification email sent: the SHA-256 of its single-use token (never the token itself),
// its expiry, and when it was sent (the resend throttle counts the rows of the last hour).
export const verificationTokens = sqliteTable(
  "verification_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    expiresAt: text("expires_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("verification_tokens_hash_unique").on(t.tokenHash), index("verification_tokens_user_idx").on(t.userId, t.createdAt)],
);

export const loginAttempts = sqliteTable("login_attempts", {
  // "email:<lowercased email>" or "ip:<client address>"
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStart: text("window_start").notNull(),
  lockedUntil: text("locked_until"),
});

/** Fixed-window request counters for rate limits (worker/services/rate-limits.ts): "<rule>:<subject>". */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull().default(0),
  windowStart: text("window_start").notNull(),
});

export const subscriptionHistory = sqliteTable(
  "subscription_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tier: text("tier").notNull(),
    startDate: text("start_date").notNull().default(now),
    endDate: text("end_date"),
    paymentAmount: real("payment_amount").notNull().default(0),
    paymentMethod: text("payment_method").notNull().default("admin"),
    status: text("status").notNull().default("active"),
    // Stripe checkout session id: makes confirming the same checkout twice a no-op.
    externalId: text("external_id"),
    createdAt: createdAt(),
  },
  (t) => [index("subscription_history_user_idx").on(t.userId), uniqueIndex("subscription_history_external_unique").on(t.externalId)],
);

// Settings an admin saves (AI and payment keys), AES-GCM encrypted under a key derived from APP_SECRET.
export const appConfig = sqliteTable("app_config", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: text("updated_at").notNull().default(now),
});

// Stripe webhook event ids already handled: a replayed delivery changes nothing.
export const processedWebhooks = sqliteTable("processed_webhooks", {
  id: text("id").primaryKey(),
  receivedAt: text("received_at").notNull().default(now),
});
