export const SESSION_COOKIE = "sw_session";
/**
 * Over https the session cookie carries the `__Host-` prefix: the browser then only accepts it with
 * Secure, Path=/ and no Domain, so a sibling subdomain cannot plant or shadow it. Plain http (localhost)
 * keeps the plain name, since browsers refuse `__Host-` cookies without Secure.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
export const FLASH_COOKIE = "sw_flash";

export function readCookie(request: Request, name: string): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

function isSecure(request: Request) {
  return new URL(request.url).protocol === "https:";
}

export function serializeCookie(request: Request, name: string, value: string, opts: { maxAge?: number; httpOnly?: boolean } = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, "Path=/", "SameSite=Lax"];
  if (opts.httpOnly !== false) parts.push("HttpOnly");
  if (isSecure(request)) parts.push("Secure");
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${opts.maxAge}`);
  return parts.join("; ");
}

const sessionCookieName = (request: Request) => (isSecure(request) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** The session token from either cookie name (the prefixed one first). */
export const readSessionCookie = (request: Request) => readCookie(request, SECURE_SESSION_COOKIE) ?? readCookie(request, SESSION_COOKIE);

export const sessionCookie = (request: Request, token: string, maxAgeSeconds: number) =>
  serializeCookie(request, sessionCookieName(request), token, { maxAge: maxAgeSeconds });

export const clearSessionCookie = (request: Request) => serializeCookie(request, sessionCookieName(request), "", { maxAge: 0 });
