import { readCookie, serializeCookie } from "./cookies";
import { signValue, unsignValue } from "./crypto";

/**
 * D1 read replication (the Sessions API). Each request runs its queries in one D1 session, so reads may be
 * served by a replica near the writer while every query of the request sees a consistent, monotonic state.
 *
 * Read-your-writes across requests: after a write, the session's bookmark (the commit it saw) goes back to the
 * browser in a cookie, and the next request starts its session from that bookmark, so a replica that has not
 * caught up with the writer's own change is never used for them. A request with no bookmark (a fresh browser, an
 * API client without a cookie jar) starts at the primary: correct first, fast from the second request on.
 * Without replication enabled on the database (and locally) all of this runs against the one primary.
 *
 * The cookie is signed with APP_SECRET: a bookmark the server did not hand out (forged, edited, from another
 * deployment) is ignored and the request starts at the primary. Over https it carries the `__Host-` prefix
 * like the session cookie, so a sibling subdomain cannot plant one.
 */
export const BOOKMARK_COOKIE = "sw_d1_bookmark";
export const SECURE_BOOKMARK_COOKIE = `__Host-${BOOKMARK_COOKIE}`;
const BOOKMARK_MAX_AGE_SECONDS = 60 * 60;
const SIGNED_FOR = "d1-bookmark";
// D1 bookmarks are dash-separated hex words; anything else is ignored rather than handed to D1.
const BOOKMARK_SHAPE = /^[0-9a-f]{1,32}(?:-[0-9a-f]{1,64}){1,8}$/i;
const PRIMARY = "first-primary";

export type D1RequestSession = { db: D1Database; bookmarkCookie: (response: Response) => Promise<Response> };

const cookieName = (request: Request) => (new URL(request.url).protocol === "https:" ? SECURE_BOOKMARK_COOKIE : BOOKMARK_COOKIE);

/** The bookmark this server signed for the browser, or null (missing, malformed, unsigned, forged). */
async function incomingBookmark(request: Request, secret: string) {
  const signed = readCookie(request, cookieName(request));
  if (!signed || signed.length > 1000) return null;
  const bookmark = await unsignValue(signed, secret, SIGNED_FOR);
  return bookmark && BOOKMARK_SHAPE.test(bookmark) ? bookmark : null;
}

export async function openD1Session(d1: D1Database, request: Request, secret: string): Promise<D1RequestSession> {
  const incoming = await incomingBookmark(request, secret);
  const session = d1.withSession(incoming ?? PRIMARY);
  // Drizzle only prepares and batches; anything else (exec, dump) goes to the database itself.
  const db = new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return session.prepare.bind(session);
      if (prop === "batch") return session.batch.bind(session);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const bookmarkCookie = async (response: Response) => {
    // Only writes need to carry the bookmark forward; reads leave the browser's cookie as it is.
    if (request.method === "GET" || request.method === "HEAD" || response.status === 101) return response;
    const bookmark = session.getBookmark();
    if (!bookmark || bookmark === incoming || !BOOKMARK_SHAPE.test(bookmark)) return response;
    const withCookie = new Response(response.body, response);
    const value = await signValue(bookmark, secret, SIGNED_FOR);
    withCookie.headers.append("Set-Cookie", serializeCookie(request, cookieName(request), value, { maxAge: BOOKMARK_MAX_AGE_SECONDS }));
    return withCookie;
  };
  return { db, bookmarkCookie };
}
