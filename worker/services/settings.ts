import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { appConfig } from "../../db/schema";
import type { Env } from "../env";
import { decryptSecret, encryptSecret } from "../lib/crypto";
import { nowIso } from "../lib/time";

/**
 * Keys an admin saves in /admin: stored in app_config encrypted with AES-GCM under a
 * key derived from APP_SECRET, read only on the server, never sent to any client. An environment
 * secret of the same name takes precedence over a saved value.
 */
export type SecretName = "OPENAI_API_KEY" | "STRIPE_SECRET_KEY" | "STRIPE_PUBLISHABLE_KEY" | "STRIPE_WEBHOOK_SECRET";

export type ResolvedSecret = { value: string; source: "environment" | "admin" } | null;

const configKey = (name: SecretName) => `secret:${name}`;

/** The effective value of a secret: the environment's, else the one an admin saved, else null. */
export async function getSecret(db: Db, env: Env, name: SecretName): Promise<ResolvedSecret> {
  const fromEnv = env[name]?.trim();
  if (fromEnv) return { value: fromEnv, source: "environment" };
  const row = await db
    .select({ value: appConfig.value })
    .from(appConfig)
    .where(eq(appConfig.key, configKey(name)))
    .get();
  if (!row) return null;
  const value = await decryptSecret(row.value, env.APP_SECRET);
  return value ? { value, source: "admin" } : null;
}

/** Reads several secrets in one query (e.g. both Stripe keys for a checkout). */
export async function getSecrets<N extends SecretName>(db: Db, env: Env, names: readonly N[]) {
  const rows = await db.select().from(appConfig).all();
  const saved = new Map(rows.map((r) => [r.key, r.value]));
  const out = {} as Record<N, ResolvedSecret>;
  for (const name of names) {
    const fromEnv = env[name]?.trim();
    if (fromEnv) {
      out[name] = { value: fromEnv, source: "environment" };
      continue;
    }
    const sealed = saved.get(configKey(name));
    const value = sealed ? await decryptSecret(sealed, env.APP_SECRET) : null;
    out[name] = value ? { value, source: "admin" } : null;
  }
  return out;
}

/** Saves (encrypted) or, with an empty value, forgets a secret an admin entered. */
export async function setSecret(db: Db, env: Env, name: SecretName, value: string | null) {
  if (!value) {
    await db.delete(appConfig).where(eq(appConfig.key, configKey(name)));
    return;
  }
  const sealed = await encryptSecret(value, env.APP_SECRET);
  await db
    .insert(appConfig)
    .values({ key: configKey(name), value: sealed, updatedAt: nowIso() })
    .onConflictDoUpdate({ target: appConfig.key, set: { value: sealed, updatedAt: nowIso() } });
}
