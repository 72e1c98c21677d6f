import { redirect, type RouterContextProvider } from "react-router";
import { loginPathFor, resolveRedirect } from "../../db/domain/redirect";
import { FLASH_COOKIE, readCookie, serializeCookie } from "../../worker/lib/cookies";
import { toPublicUser } from "../../worker/services/users";
import { appContext } from "../context";
import type { Toast } from "./toast";

type Ctx = Readonly<RouterContextProvider>;

export const app = (context: Ctx) => context.get(appContext);

export function sessionUser(context: Ctx) {
  return app(context).auth.session?.user ?? null;
}

export function publicUser(context: Ctx) {
  const user = sessionUser(context);
  return user ? toPublicUser(user) : null;
}

/** Guards throw: a redirect before any HTML is rendered (no flash of protected content). */
export function requireUser(context: Ctx) {
  const user = sessionUser(context);
  if (!user) throw redirect("/auth/login");
  return user;
}

export function requireAdmin(context: Ctx) {
  const user = requireUser(context);
  if (user.role !== "admin") throw redirect("/");
  return user;
}

/** The protected pages' guard: a signed-out visitor goes to the login page, which brings them back here afterwards. */
export function requireUserOrLogin(request: Request, context: Ctx) {
  const user = sessionUser(context);
  if (!user) throw redirect(loginPathFor(pageOf(request)));
  return user;
}

/** The page a request is for: a client navigation's data request (`/x.data?_routes=…`) stands for the page `/x`. */
function pageOf(request: Request) {
  const url = new URL(request.url);
  let path = url.pathname;
  if (path.endsWith(".data")) path = path === "/_root.data" ? "/" : path.slice(0, -".data".length);
  url.searchParams.delete("_routes");
  const search = url.searchParams.toString();
  return search ? `${path}?${search}` : path;
}

/** The login and register pages' `redirectTo`, resolved on this site (null when none was given). */
export function returnAddress(request: Request): string | null {
  const url = new URL(request.url);
  const value = url.searchParams.get("redirectTo");
  return value === null ? null : resolveRedirect(value, url.origin);
}

export function redirectIfSignedIn(request: Request, context: Ctx) {
  if (sessionUser(context)) throw redirect(returnAddress(request) ?? "/timeline");
}

/** A one-shot toast carried across a redirect in a short-lived cookie. */
export function flashCookie(request: Request, toast: Toast) {
  return serializeCookie(request, FLASH_COOKIE, JSON.stringify(toast), { maxAge: 60, httpOnly: true });
}

export function readFlash(request: Request): Toast | null {
  const raw = readCookie(request, FLASH_COOKIE);
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Toast;
    return typeof value?.title === "string" ? value : null;
  } catch {
    return null;
  }
}

export const clearFlashCookie = (request: Request) => serializeCookie(request, FLASH_COOKIE, "", { maxAge: 0 });

/**
 * The newest unread notification not yet shown as a toast (shown once, on the next page view), and the cookie
 * that remembers it; it stays unread in the inbox.
 */
export function freshNotification<N extends { id: number }>(request: Request, unread: N[]) {
  const seen = Number(readCookie(request, SEEN_NOTIFICATION_COOKIE)) || 0;
  const fresh = unread.find((n) => n.id > seen) ?? null;
  const cookie = fresh ? serializeCookie(request, SEEN_NOTIFICATION_COOKIE, String(fresh.id), { maxAge: 30 * 24 * 3600 }) : null;
  return { fresh, cookie };
}
const SEEN_NOTIFICATION_COOKIE = "sw_seen_notification";
