import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type User, users } from "../../db/schema";
import type { Login, Register } from "../../db/domain/validation";
import { hashPassword, needsRehash, verifyPassword } from "../lib/crypto";
import { HttpError, conflict } from "../lib/errors";
import { nowIso } from "../lib/time";
import { claimLoginAttempt, clearLoginAttempt, throttleKeys } from "./login-throttle";
import { type Limiter, spend } from "./rate-limits";
import { type VerificationMail, roleFor, sendVerificationEmail } from "./email-verification";
import { createSession } from "./sessions";
import { type PublicUser, findUserByEmail, toPublicUser } from "./users";

export const INVALID_CREDENTIALS = "Invalid email or password";

export interface AuthDeps {
  db: Db;
  /** APP_SECRET: the password pepper. */
  secret: string;
  adminEmails?: string;
}

export type AuthResult = { token: string; user: PublicUser };

/** A new account starts unverified (so never admin) and is mailed its verification link. */
export async function register(deps: AuthDeps, input: Register, mail: VerificationMail, limiter: Limiter): Promise<AuthResult> {
  const { db } = deps;
  await spend(limiter, "register", limiter.client);
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
        role: "user",
        lastLogin: now,
      })
      .returning()
      .get();
  } catch (error) {
    // Two registrations racing for one address: the unique index decides.
    if (String(error).includes("UNIQUE")) throw conflict("An account with this email already exists");
    throw error;
  }
  // The first verification email counts toward the account's hourly allowance of them.
  await spend(limiter, "verifyMail", `user:${user.id}`);
  await sendVerificationEmail(db, user, mail);
  return { token: await createSession(db, user.id), user: toPublicUser(user) };
}

export async function login(deps: AuthDeps, input: Login, limiter: Limiter): Promise<AuthResult> {
  const { db } = deps;
  const keys = throttleKeys(input.email, limiter.client);
  // Counted before the password is checked: parallel guesses cannot get past the lockout.
  await claimLoginAttempt(limiter, keys);

  const user = await findUserByEmail(db, input.email);
  // Verify against a dummy hash when the user is unknown, or has no password (OAuth-only: an empty
  // hash), so every path takes the same time and no password ever matches an empty hash.
  const verified = await verifyPassword(input.password, user?.hashedPassword || DUMMY_HASH, deps.secret);
  const ok = Boolean(user?.hashedPassword) && verified;
  if (!user || !ok) {
    throw new HttpError(401, INVALID_CREDENTIALS);
  }

  const now = nowIso();
  const updates: Partial<User> = { lastLogin: now };
  if (needsRehash(user.hashedPassword)) {
    updates.hashedPassword = await hashPassword(input.password, deps.secret);
  }
  // Admin follows ADMIN_EMAILS at every sign-in, and only for a verified address.
  const role = roleFor(user, deps.adminEmails);
  if (role !== user.role) updates.role = role;
  const [updated] = await db.batch([
    db.update(users).set(updates).where(eq(users.id, user.id)).returning(),
    ...clearLoginAttempt(db, keys),
  ]);
  return { token: await createSession(db, user.id), user: toPublicUser(updated[0]) };
}

// A valid-looking hash of a random password; never matches.
const DUMMY_HASH = "pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
