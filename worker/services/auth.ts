import { and, eq, gt, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { loginAttempts, sessions, users, type User } from "../../db/schema";
import type { Login, Register } from "../../db/validation";
import {
  hashPassword,
  needsRehash,
  randomToken,
  sha256Hex,
  verifyPassword,
} from "../lib/crypto";
import { HttpError, badRequest, conflict, tooMany } from "../lib/errors";
import type { Mailer } from "../lib/mailer";
import { DAY, HOUR, MINUTE, isoIn, nowIso } from "../lib/time";

export const SESSION_TTL_MS = 30 * DAY;
export const RESET_TOKEN_TTL_MS = HOUR;
const SESSION_SLIDE_AFTER_MS = HOUR;

// Throttling: a window of 15 minutes; an email is locked after 5 failures, a client address after 20.
const THROTTLE_WINDOW_MS = 15 * MINUTE;
const THROTTLE_LOCK_MS = 15 * MINUTE;
const MAX_FAILURES_PER_EMAIL = 5;
const MAX_FAILURES_PER_CLIENT = 20;

export const INVALID_CREDENTIALS = "Invalid email or password";
export const INVALID_RESET_TOKEN = "This password reset token is invalid or has expired.";
export const FORGOT_PASSWORD_MESSAGE =
  "If an account exists with the email you provided, you'll receive an email with a reset token.";

export interface AuthDeps {
  db: Db;
  /** APP_SECRET: the password pepper. */
  secret: string;
  adminEmails?: string;
}

export type PublicUser = {
  id: number;
  email: string;
  name: string | null;
  avatar: string | null;
  role: "user" | "admin";
  subscriptionTier: string;
  subscriptionEndDate: string | null;
  isEmailVerified: boolean;
  lastLogin: string | null;
  createdAt: string;
};

/** DESIGN.md §3: premium only while the end date (if any) has not passed. */
export function effectiveTier(user: Pick<User, "subscriptionTier" | "subscriptionEndDate">) {
  if (user.subscriptionTier !== "premium") return "free";
  if (user.subscriptionEndDate && Date.parse(user.subscriptionEndDate) <= Date.now()) return "free";
  return "premium";
}

export function isPremium(user: Pick<User, "subscriptionTier" | "subscriptionEndDate">) {
  return effectiveTier(user) === "premium";
}

export function toPublicUser(user: User): PublicUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    avatar: user.avatar,
    role: user.role,
    subscriptionTier: effectiveTier(user),
    subscriptionEndDate: user.subscriptionEndDate,
    isEmailVerified: user.isEmailVerified,
    lastLogin: user.lastLogin,
    createdAt: user.createdAt,
  };
}

function isAdminEmail(email: string, adminEmails?: string) {
  if (!adminEmails) return false;
  return adminEmails
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
    .includes(email.toLowerCase());
}

export async function findUserByEmail(db: Db, email: string) {
  return db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .get();
}

async function createSession(db: Db, userId: number) {
  const token = randomToken(32);
  await db.insert(sessions).values({
    id: await sha256Hex(token),
    userId,
    expiresAt: isoIn(SESSION_TTL_MS),
  });
  return token;
}

export type AuthResult = { token: string; user: PublicUser };

export async function register(deps: AuthDeps, input: Register): Promise<AuthResult> {
  const { db } = deps;
  if (await findUserByEmail(db, input.email)) {
    throw conflict("An account with this email already exists");
  }
  const hashedPassword = await hashPassword(input.password, deps.secret);
  const now = nowIso();
  let user: User;
  try {
    user = await db
      .insert(users)
      .values({
        email: input.email.toLowerCase(),
        name: input.name,
        hashedPassword,
        role: isAdminEmail(input.email, deps.adminEmails) ? "admin" : "user",
        lastLogin: now,
      })
      .returning()
      .get();
  } catch (error) {
    // Two registrations racing for one address: the unique index decides.
    if (String(error).includes("UNIQUE")) throw conflict("An account with this email already exists");
    throw error;
  }
  return { token: await createSession(db, user.id), user: toPublicUser(user) };
}

async function throttleState(db: Db, key: string) {
  return db.select().from(loginAttempts).where(eq(loginAttempts.key, key)).get();
}

function lockedFor(row: { lockedUntil: string | null } | undefined): number {
  if (!row?.lockedUntil) return 0;
  const left = Date.parse(row.lockedUntil) - Date.now();
  return Math.max(left, 0);
}

async function recordFailure(db: Db, key: string, max: number) {
  const now = Date.now();
  const windowStartCutoff = new Date(now - THROTTLE_WINDOW_MS).toISOString();
  // One statement: start a new window when the old one has passed, else count up; lock at the max.
  await db.run(sql`
    INSERT INTO login_attempts (key, failures, window_start, locked_until)
    VALUES (${key}, 1, ${new Date(now).toISOString()}, NULL)
    ON CONFLICT(key) DO UPDATE SET
      failures = CASE WHEN window_start < ${windowStartCutoff} THEN 1 ELSE failures + 1 END,
      window_start = CASE WHEN window_start < ${windowStartCutoff} THEN excluded.window_start ELSE window_start END,
      locked_until = CASE
        WHEN window_start >= ${windowStartCutoff} AND failures + 1 >= ${max}
        THEN ${new Date(now + THROTTLE_LOCK_MS).toISOString()}
        ELSE locked_until END
  `);
}

function throttled(ms: number) {
  const minutes = Math.max(1, Math.ceil(ms / MINUTE));
  return tooMany(
    `Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
    Math.ceil(ms / 1000),
  );
}

export async function login(
  deps: AuthDeps,
  input: Login,
  clientKey: string,
): Promise<AuthResult> {
  const { db } = deps;
  const emailKey = `email:${input.email.toLowerCase()}`;
  const ipKey = `ip:${clientKey}`;
  const [emailState, ipState] = await Promise.all([
    throttleState(db, emailKey),
    throttleState(db, ipKey),
  ]);
  const wait = Math.max(lockedFor(emailState), lockedFor(ipState));
  if (wait > 0) throw throttled(wait);

  const user = await findUserByEmail(db, input.email);
  // Verify against a dummy hash when the user is unknown so both paths take the same time.
  const verified = await verifyPassword(input.password, user?.hashedPassword ?? DUMMY_HASH, deps.secret);
  const ok = Boolean(user) && verified;
  if (!user || !ok) {
    await Promise.all([
      recordFailure(db, emailKey, MAX_FAILURES_PER_EMAIL),
      recordFailure(db, ipKey, MAX_FAILURES_PER_CLIENT),
    ]);
    throw new HttpError(401, INVALID_CREDENTIALS);
  }

  const now = nowIso();
  const updates: Partial<User> = { lastLogin: now };
  if (needsRehash(user.hashedPassword)) {
    updates.hashedPassword = await hashPassword(input.password, deps.secret);
  }
  if (user.role !== "admin" && isAdminEmail(user.email, deps.adminEmails)) updates.role = "admin";
  const [updated] = await db.batch([
    db.update(users).set(updates).where(eq(users.id, user.id)).returning(),
    db.delete(loginAttempts).where(eq(loginAttempts.key, emailKey)),
  ]);
  return { token: await createSession(db, user.id), user: toPublicUser(updated[0]) };
}

// A valid-looking hash of a random password; never matches.
const DUMMY_HASH =
  "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

export type UnreadNotification = { id: number; type: string; title: string; message: string; createdAt: string };
export type SessionUser = { user: User; sessionId: string; aiUses: number; unread: UnreadNotification[] };

/** Resolves an opaque token to its user; slides the expiry at most once an hour. */
export async function getSessionUser(
  db: Db,
  token: string,
  defer: (p: Promise<unknown>) => void = () => {},
): Promise<SessionUser | null> {
  if (!token || token.length > 200) return null;
  const id = await sha256Hex(token);
  const row = await db
    .select({
      user: users,
      expiresAt: sessions.expiresAt,
      lastSeenAt: sessions.lastSeenAt,
      aiUses: sessions.aiUses,
      // Unread notifications ride along in the same statement (they show on the next page view).
      unread: sql<string | null>`(SELECT json_group_array(json_object('id', n.id, 'type', n.type, 'title', n.title,
        'message', n.message, 'createdAt', n.created_at)) FROM (SELECT * FROM notifications
        WHERE notifications.user_id = ${users.id} AND notifications.read = 0 ORDER BY notifications.id DESC LIMIT 5) n)`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.expiresAt, nowIso())))
    .get();
  if (!row) return null;
  if (Date.now() - Date.parse(row.lastSeenAt) > SESSION_SLIDE_AFTER_MS) {
    defer(
      db
        .update(sessions)
        .set({ lastSeenAt: nowIso(), expiresAt: isoIn(SESSION_TTL_MS) })
        .where(eq(sessions.id, id))
        .run(),
    );
  }
  let unread: UnreadNotification[] = [];
  try {
    unread = row.unread ? (JSON.parse(row.unread) as UnreadNotification[]) : [];
  } catch {
    unread = [];
  }
  return { user: row.user, sessionId: id, aiUses: row.aiUses, unread };
}

export async function logout(db: Db, token: string) {
  await db.delete(sessions).where(eq(sessions.id, await sha256Hex(token)));
}

/** Always resolves the same way whether or not the account exists (no account enumeration). */
export async function requestPasswordReset(
  db: Db,
  email: string,
  origin: string,
  mailer: Mailer,
  defer: (p: Promise<unknown>) => void,
) {
  const user = await findUserByEmail(db, email);
  if (!user) return { message: FORGOT_PASSWORD_MESSAGE };
  const token = randomToken(24);
  await db
    .update(users)
    .set({ resetPasswordToken: await sha256Hex(token), resetPasswordExpires: isoIn(RESET_TOKEN_TTL_MS) })
    .where(eq(users.id, user.id));
  const link = `${origin}/auth/reset-password?token=${encodeURIComponent(token)}`;
  defer(
    mailer
      .send({
        to: user.email,
        subject: "Reset your StoryWeave password",
        text:
          `Someone asked to reset the password of your StoryWeave account.\n\n` +
          `Open this link within 1 hour to choose a new password:\n${link}\n\n` +
          `Or enter this reset token on the reset page: ${token}\n\n` +
          `If it wasn't you, ignore this email: your password stays the same.`,
      })
      .catch((error) => console.error("[mail] failed to send reset email:", String(error))),
  );
  return { message: FORGOT_PASSWORD_MESSAGE };
}

async function userForResetToken(db: Db, token: string) {
  if (!token || token.length > 200) return undefined;
  return db
    .select()
    .from(users)
    .where(
      and(eq(users.resetPasswordToken, await sha256Hex(token)), gt(users.resetPasswordExpires, nowIso())),
    )
    .get();
}

export async function isResetTokenValid(db: Db, token: string) {
  return Boolean(await userForResetToken(db, token.trim()));
}

/** Single use: the token is cleared, every session revoked, and a fresh one returned. */
export async function resetPassword(
  deps: AuthDeps,
  token: string,
  password: string,
  opts: { signIn: boolean } = { signIn: true },
): Promise<{ token: string | null; user: PublicUser }> {
  const { db } = deps;
  const user = await userForResetToken(db, token.trim());
  if (!user) throw badRequest(INVALID_RESET_TOKEN);
  const hashedPassword = await hashPassword(password, deps.secret);
  const [updated] = await db.batch([
    db
      .update(users)
      .set({ hashedPassword, resetPasswordToken: null, resetPasswordExpires: null, lastLogin: nowIso(), updatedAt: nowIso() })
      // The token in the WHERE makes a concurrent second use of the same token a no-op.
      .where(and(eq(users.id, user.id), eq(users.resetPasswordToken, user.resetPasswordToken!)))
      .returning(),
    db.delete(sessions).where(eq(sessions.userId, user.id)),
  ]);
  if (!updated[0]) throw badRequest(INVALID_RESET_TOKEN);
  return {
    token: opts.signIn ? await createSession(db, user.id) : null,
    user: toPublicUser(updated[0]),
  };
}

