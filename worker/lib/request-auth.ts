import type { Db } from "../../db/client";
import { getSessionUser, type SessionUser } from "../services/auth";
import { SESSION_COOKIE, readCookie } from "./cookies";

export type AuthVia = "bearer" | "cookie";
export type RequestAuth = { session: SessionUser | null; via: AuthVia | null; token: string | null };

export function tokenFromRequest(request: Request): { token: string; via: AuthVia } | null {
  const header = request.headers.get("Authorization");
  if (header?.startsWith("Bearer ")) {
    const token = header.slice(7).trim();
    if (token) return { token, via: "bearer" };
  }
  const cookie = readCookie(request, SESSION_COOKIE);
  return cookie ? { token: cookie, via: "cookie" } : null;
}

/** One helper for the API, the page loaders and the room's upgrade check. */
export async function authenticate(
  request: Request,
  db: Db,
  defer?: (p: Promise<unknown>) => void,
): Promise<RequestAuth> {
  const found = tokenFromRequest(request);
  if (!found) return { session: null, via: null, token: null };
  const session = await getSessionUser(db, found.token, defer);
  return { session, via: session ? found.via : null, token: found.token };
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
  return readCookie(request, SESSION_COOKIE) !== null;
}
