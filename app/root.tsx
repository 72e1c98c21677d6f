import { lazy, Suspense, useContext, useEffect, useSyncExternalStore } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useNavigation, useRouteLoaderData } from "react-router";
import { localeOf } from "../db/domain/calendar/locale";
import type { Route } from "./+types/root";
import appCssUrl from "./app.css?url";
import { GeneralErrorBoundary } from "./ui/error-boundary";
import { OfflineBadge } from "./features/offline/offline-badge";
import { claimDeviceFor, registerServiceWorker, resumeKeptChanges } from "./features/offline/service-worker";
import { TopNav } from "./ui/top-nav";
import { clearFlashCookie, freshNotification, publicUser, readFlash } from "./lib/session.server";
import { app } from "./lib/session.server";
import { InlineCss, keptCss } from "./lib/inline-css";
import { sidePanelHiddenIn } from "./lib/side-panel-cookie";
import { loadWhenOnline } from "./lib/load-when-online";
import { onToasterWanted, showToast, toasterWanted, wantToaster } from "./lib/toast";

// sonner loads with the first toast (or the first press or key, which may lead to one), not with
// the page; toasts fired before it is mounted wait in lib/toast.ts (and, with no network to load it, until it returns).
const Toaster = lazy(loadWhenOnline(() => import("./ui/toaster")));

function useToasterWanted() {
  useEffect(() => {
    const early = () => wantToaster();
    const options = { capture: true, once: true, passive: true } as const;
    window.addEventListener("pointerdown", early, options);
    window.addEventListener("keydown", early, options);
    return () => {
      window.removeEventListener("pointerdown", early, options);
      window.removeEventListener("keydown", early, options);
    };
  }, []);
  return useSyncExternalStore(onToasterWanted, toasterWanted, () => false);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const flash = readFlash(request);
  const { auth } = app(context);
  // The bell's count: the unread notifications read with the session (they stay unread until the inbox marks them).
  // The newest one not shown yet also appears once as a toast.
  const unread = auth.session?.unread ?? [];
  const { fresh, cookie } = freshNotification(request, unread);
  const headers = new Headers();
  if (flash) headers.append("Set-Cookie", clearFlashCookie(request));
  if (cookie) headers.append("Set-Cookie", cookie);
  return data(
    {
      user: publicUser(context),
      flash,
      unread: unread.length,
      notification: fresh && { title: fresh.title, message: fresh.message },
      nonce: import.meta.env.DEV ? undefined : app(context).nonce,
      // The writer's locale for story dates in words: the server's HTML and the browser's formatting agree on it.
      locale: localeOf(request.headers.get("Accept-Language")),
      // The timeline's side column as the writer left it ('Hide side panel'), so the server's HTML is already drawn so.
      sidePanelHidden: sidePanelHiddenIn(request.headers.get("Cookie")),
    },
    { headers },
  );
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export function meta() {
  return [{ title: "StoryWeave" }, { name: "description", content: "Collaborative story timelines with an AI writing assistant." }];
}

// The stylesheet is inline in production (lib/inline-css.ts); dev links it for hot reload.
export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icon-192.png" },
  ...(import.meta.env.DEV ? [{ rel: "stylesheet", href: appCssUrl }] : []),
];

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const toaster = useToasterWanted();
  const css = useContext(InlineCss) ?? keptCss;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#6d28d9" />
        <Meta />
        {import.meta.env.DEV ? null : (
          // biome-ignore lint/security/noDangerouslySetInnerHtml: our own build's stylesheet, never user input
          <style id="sw-css" dangerouslySetInnerHTML={css} />
        )}
        <Links />
      </head>
      <body className="min-h-screen">
        <TopNav user={root?.user ?? null} unread={root?.unread ?? 0} />
        <NavigationProgress />
        <OfflineBadge />
        {children}
        {toaster ? (
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        ) : null}
        <ScrollRestoration nonce={root?.nonce} />
        <Scripts nonce={root?.nonce} />
      </body>
    </html>
  );
}

/** Protected pages show a spinner while the next page loads. */
function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === "idle") return null;
  return (
    <div role="status" aria-label="Loading" className="fixed top-16 left-0 z-40 h-0.5 w-full overflow-hidden bg-brand-100">
      <div className="h-full w-1/3 animate-[pulse_1s_ease-in-out_infinite] bg-brand-600" />
    </div>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  useEffect(() => {
    // A marker the browser tests wait for before they click.
    document.documentElement.dataset.hydrated = "true";
    registerServiceWorker();
  }, []);
  const userId = loaderData.user?.id;
  useEffect(() => {
    // The pages and scene copies kept on this device are one account's: another account's go when this one shows.
    // Then what it queued offline is sent from this page, whichever it is.
    if (userId !== undefined) void claimDeviceFor(userId).then(() => resumeKeptChanges(userId));
  }, [userId]);
  useEffect(() => {
    if (loaderData.flash) showToast(loaderData.flash);
  }, [loaderData.flash]);
  useEffect(() => {
    const latest = loaderData.notification;
    if (latest) showToast({ title: latest.title, description: latest.message });
  }, [loaderData.notification]);
  return <Outlet />;
}

export { GeneralErrorBoundary as ErrorBoundary };
