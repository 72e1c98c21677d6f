export const SESSION_COOKIE = "sw_session";
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

export const sessionCookie = (request: Request, token: string, maxAgeSeconds: number) =>
  serializeCookie(request, SESSION_COOKIE, token, { maxAge: maxAgeSeconds });

export const clearSessionCookie = (request: Request) => serializeCookie(request, SESSION_COOKIE, "", { maxAge: 0 });
