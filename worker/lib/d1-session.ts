import { readCookie, serializeCookie } from "./cookies";

/**
 * D1 read replication (the Sessions API). Each request runs its queries in one D1 session, so reads may be
 * served by a replica near the writer while every query of the request sees a consistent, monotonic state.
 *
 * Read-your-writes across requests: after a write, the session's bookmark (the commit it saw) goes back to the
 * browser in a cookie, and the next request starts its session from that bookmark, so a replica that has not
 * caught up with the writer's own change is never used for them. A request with no bookmark (a fresh browser, an
 * API client without a cookie jar) starts at the primary: correct first, fast from the second request on.
 * Without replication enabled on the database (and locally) all of this runs against the one primary.
 */
export const BOOKMARK_COOKIE = "sw_d1_bookmark";
const BOOKMARK_MAX_AGE_SECONDS = 60 * 60;
// D1 bookmarks are dash-separated hex words; anything else is ignored rather than handed to D1.
const BOOKMARK_SHAPE = /^[0-9a-f]{1,32}(?:-[0-9a-f]{1,64}){1,8}$/i;

export type D1RequestSession = { db: D1Database; bookmarkCookie: (response: Response) => Response };

export function openD1Session(d1: D1Database, request: Request): D1RequestSession {
  const incoming = readCookie(request, BOOKMARK_COOKIE);
  const start = incoming && BOOKMARK_SHAPE.test(incoming) ? incoming : "first-primary";
  const session = d1.withSession(start);
  // Drizzle only prepares and batches; anything else (exec, dump) goes to the database itself.
  const db = new Proxy(d1, {
    get(target, prop) {
      if (prop === "prepare") return session.prepare.bind(session);
      if (prop === "batch") return session.batch.bind(session);
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const bookmarkCookie = (response: Response) => {
    // Only writes need to carry the bookmark forward; reads leave the browser's cookie as it is.
    if (request.method === "GET" || request.method === "HEAD" || response.status === 101) return response;
    const bookmark = session.getBookmark();
    if (!bookmark || bookmark === incoming || !BOOKMARK_SHAPE.test(bookmark)) return response;
    const withCookie = new Response(response.body, response);
    withCookie.headers.append("Set-Cookie", serializeCookie(request, BOOKMARK_COOKIE, bookmark, { maxAge: BOOKMARK_MAX_AGE_SECONDS }));
    return withCookie;
  };
  return { db, bookmarkCookie };
}
