import { readSessionCookie } from "./cookies";

export type AuthVia = "bearer" | "cookie";

export function tokenFromRequest(request: Request): { token: string; via: AuthVia } | null {
  const header = request.headers.get("Authorization");
  if (header?.startsWith("Bearer ")) {
    const token = header.slice(7).trim();
    if (token) return { token, via: "bearer" };
  }
  const cookie = readSessionCookie(request);
  return cookie ? { token: cookie, via: "cookie" } : null;
}

/**
 * CSRF: a state-changing request that would be authenticated by the cookie must come from our own
 * origin. Bearer requests are exempt (a browser never attaches that header on its own).
 */
export function isCrossSiteMutation(request: Request): boolean {
  if (["GET", "HEAD", "OPTIONS"].includes(request.method)) return false;
  if (request.headers.get("Authorization")?.startsWith("Bearer ")) return false;
  const origin = request.headers.get("Origin");
  const self = new URL(request.url).origin;
  if (origin) return origin !== self;
  const site = request.headers.get("Sec-Fetch-Site");
  if (site) return site !== "same-origin" && site !== "none";
  // No Origin and no Fetch Metadata: not a modern browser's cross-site request. Allow it only
  // when no session cookie would authenticate it.
  return readSessionCookie(request) !== null;
}

/** The caller's address as Cloudflare reports it (login throttling keys on it). */
export function clientKey(request: Request) {
  return request.headers.get("CF-Connecting-IP") ?? request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ?? "local";
}
