// Where a writer goes after signing in (OAuth callback, login and register forms): the Worker and the
// pages both resolve `redirectTo` here. No imports: the pages take it without pulling anything else in.

export const DEFAULT_REDIRECT = "/timeline";
const REDIRECT_MAX = 500;

/**
 * `value` resolved with `URL` against the site's `origin`, as a same-origin path + search + hash; anything
 * else (another origin, a scheme such as `javascript:`, control characters, a path the browser would read
 * as protocol-relative, too long) is DEFAULT_REDIRECT. Browsers drop tabs and newlines from a Location
 * (`/\t/evil.example` becomes `//evil.example`) and read `\` as `/`, so both are refused before parsing.
 */
export function resolveRedirect(value: string | null | undefined, origin: string): string {
  if (typeof value !== "string" || !value || value.length > REDIRECT_MAX) return DEFAULT_REDIRECT;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return DEFAULT_REDIRECT;
  let site: URL;
  let target: URL;
  try {
    site = new URL(origin);
    target = new URL(value, site);
  } catch {
    return DEFAULT_REDIRECT;
  }
  if (target.origin !== site.origin) return DEFAULT_REDIRECT;
  const path = `${target.pathname}${target.search}${target.hash}`;
  // `/.//evil.example` normalises to `//evil.example`: a Location the browser would take off-site.
  if (!path.startsWith("/") || path.startsWith("//")) return DEFAULT_REDIRECT;
  return path;
}

/** The sign-in page that comes back to `path` afterwards. */
export const loginPathFor = (path: string) => `/auth/login?redirectTo=${encodeURIComponent(path)}`;
