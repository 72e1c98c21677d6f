import { readSessionCookie } from "./cookies";

export function createNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function contentSecurityPolicy(nonce: string, dev: boolean, url: URL) {
  // Dev: Vite's client injects inline and eval'd module code for HMR; production is nonce-only. Both may compile
  // WebAssembly ('wasm-unsafe-eval' allows no JavaScript eval): the print dialog's typesetter is WebAssembly.
  const script = dev ? "'self' 'unsafe-inline' 'unsafe-eval'" : `'self' 'nonce-${nonce}' 'wasm-unsafe-eval'`;
  // The live room is this origin's own WebSocket (ws: on http, wss: on https): no scheme wildcards.
  const socket = `${url.protocol === "https:" ? "wss:" : "ws:"}//${url.host}`;
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${socket}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/**
 * security headers on every response (101 upgrades are passed through untouched).
 * API answers and anything rendered for a signed-in browser are `no-store` (unless the handler chose a `private`
 * policy): a shared or back-button cache must never hand one writer's pages or data to the next person.
 */
export function withSecurityHeaders(response: Response, request: Request, nonce: string, dev: boolean): Response {
  if (response.status === 101 || response.webSocket) return response;
  const url = new URL(request.url);
  const res = new Response(response.body, response);
  const h = res.headers;
  const isHtml = h.get("Content-Type")?.includes("text/html");
  if (isHtml) h.set("Content-Security-Policy", contentSecurityPolicy(nonce, dev, url));
  else h.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Referrer-Policy", "strict-origin-when-cross-origin");
  h.set("X-Frame-Options", "DENY");
  h.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  h.set("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
  if (url.protocol === "https:") {
    h.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  const isApi = url.pathname === "/api" || url.pathname.startsWith("/api/");
  const signedIn = readSessionCookie(request) !== null || request.headers.has("Authorization");
  // A handler that chose a `private` policy keeps it: the ETag'd reads are `private, no-cache` (the browser keeps its
  // own copy and revalidates every time, so a refetch of unchanged data is a 304); shared caches still store nothing.
  const chosen = h.get("Cache-Control");
  if ((isApi || signedIn) && !chosen?.includes("private")) h.set("Cache-Control", "no-store");
  return res;
}
