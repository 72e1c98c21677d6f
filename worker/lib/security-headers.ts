export function createNonce() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

function contentSecurityPolicy(nonce: string, dev: boolean) {
  // Dev: Vite's client injects inline and eval'd module code for HMR; production is nonce-only.
  const script = dev ? "'self' 'unsafe-inline' 'unsafe-eval'" : `'self' 'nonce-${nonce}'`;
  return [
    "default-src 'self'",
    `script-src ${script}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    "connect-src 'self' ws: wss:",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");
}

/** DESIGN.md §4: security headers on every response (101 upgrades are passed through untouched). */
export function withSecurityHeaders(response: Response, nonce: string, dev: boolean): Response {
  if (response.status === 101 || response.webSocket) return response;
  const res = new Response(response.body, response);
  const h = res.headers;
  const isHtml = h.get("Content-Type")?.includes("text/html");
  if (isHtml) h.set("Content-Security-Policy", contentSecurityPolicy(nonce, dev));
  else h.set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'");
  h.set("X-Content-Type-Options", "nosniff");
  h.set("Referrer-Policy", "strict-origin-when-cross-origin");
  h.set("X-Frame-Options", "DENY");
  h.set("Permissions-Policy", "camera=(), microphone=(), geolocation=()");
  h.set("Cross-Origin-Opener-Policy", "same-origin-allow-popups");
  if (new URL(res.url || "http://x").protocol === "https:") {
    h.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
  }
  return res;
}
