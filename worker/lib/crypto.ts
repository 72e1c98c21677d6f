// Pure WebCrypto: runs in workerd and in Node (the seed script imports this file too).

const encoder = new TextEncoder();

export function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(value: string): Uint8Array {
  const base64 = value.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function randomToken(bytes = 32): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

// 100,000 is the highest PBKDF2 iteration count the Workers runtime accepts.
export const PBKDF2_ITERATIONS = 100_000;
const SCHEME = "pbkdf2-sha256";

async function pepperedPassword(password: string, pepper: string): Promise<ArrayBuffer> {
  // The pepper (from APP_SECRET) means a stolen database alone is not enough to attack the hashes.
  const key = await crypto.subtle.importKey("raw", encoder.encode(pepper), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", key, encoder.encode(password));
}

async function derive(password: string, pepper: string, salt: Uint8Array, iterations: number) {
  const material = await crypto.subtle.importKey("raw", await pepperedPassword(password, pepper), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations }, material, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, pepper: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, pepper, salt, PBKDF2_ITERATIONS);
  return `${SCHEME}$${PBKDF2_ITERATIONS}$${toBase64Url(salt)}$${toBase64Url(hash)}`;
}

export async function verifyPassword(password: string, stored: string, pepper: string): Promise<boolean> {
  const [scheme, iterationsText, saltText, hashText] = stored.split("$");
  const iterations = Number(iterationsText);
  if (scheme !== SCHEME || !Number.isInteger(iterations) || !saltText || !hashText) return false;
  const actual = await derive(password, pepper, fromBase64Url(saltText), iterations);
  return timingSafeEqual(actual, fromBase64Url(hashText));
}

/** True when a stored hash uses weaker parameters than today's and should be rehashed on login. */
export function needsRehash(stored: string): boolean {
  const [scheme, iterations] = stored.split("$");
  return scheme !== SCHEME || Number(iterations) < PBKDF2_ITERATIONS;
}

async function aesKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: encoder.encode("storyweave-config"),
      info: encoder.encode("app_config v1"),
    },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** AES-GCM with a fresh 12-byte IV: "v1.<iv>.<ciphertext>" (base64url). */
export async function encryptSecret(plaintext: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const data = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await aesKey(secret), encoder.encode(plaintext));
  return `v1.${toBase64Url(iv)}.${toBase64Url(new Uint8Array(data))}`;
}

export async function decryptSecret(sealed: string, secret: string): Promise<string | null> {
  const [version, ivText, dataText] = sealed.split(".");
  if (version !== "v1" || !ivText || !dataText) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64Url(ivText) as BufferSource },
      await aesKey(secret),
      fromBase64Url(dataText) as BufferSource,
    );
    return new TextDecoder().decode(plain);
  } catch {
    return null;
  }
}

async function hmac(secret: string, purpose: string, value: string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  // The purpose keeps a signature made for one kind of value from being accepted as another.
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(`${purpose}\n${value}`)));
}

/** `value.<HMAC-SHA256 signature>` (base64url): a value the browser keeps but cannot change. */
export async function signValue(value: string, secret: string, purpose: string): Promise<string> {
  return `${value}.${toBase64Url(await hmac(secret, purpose, value))}`;
}

/** The value of a `signValue` string, or null when it was not signed with this secret and purpose. */
export async function unsignValue(signed: string, secret: string, purpose: string): Promise<string | null> {
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = signed.slice(0, dot);
  let given: Uint8Array;
  try {
    given = fromBase64Url(signed.slice(dot + 1));
  } catch {
    return null;
  }
  return timingSafeEqual(given, await hmac(secret, purpose, value)) ? value : null;
}
