import { Bell, BookOpenText } from "lucide-react";
import { useEffect, useState } from "react";
import { Link, NavLink } from "react-router";
import { AccountTrigger } from "~/features/account/account-trigger";
import { HelpAssistant } from "~/features/assistant/help-assistant";
import { LazyPopup, onDemand } from "~/ui/lazy-popup";
import { Button } from "~/ui/button";
import { cn } from "~/lib/cn";
import { whenIdleOnline } from "~/lib/when-idle";
import { isAdmin, type PublicUser } from "~/lib/user";

const navLink = ({ isActive }: { isActive: boolean }) =>
  cn(
    "whitespace-nowrap rounded-md px-2 py-2 text-sm sm:px-3 font-medium transition-colors",
    isActive ? "bg-brand-50 text-brand-700" : "text-stone-700 hover:bg-stone-100",
  );

export function TopNav({ user, unread = 0 }: { user: PublicUser | null; unread?: number }) {
  return (
    <header className="sticky top-0 z-30 border-b border-stone-200 bg-white/90 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center gap-1 px-3 sm:gap-2 sm:px-4">
        <Link to="/" aria-label="StoryWeave" className="mr-1 flex items-center gap-2 font-serif text-xl font-bold text-brand-700 sm:mr-3">
          <BookOpenText aria-hidden="true" className="h-6 w-6 shrink-0" />
          <span className="hidden sm:inline">StoryWeave</span>
        </Link>
        <div className="flex flex-1 items-center gap-1 overflow-x-auto">
          <NavLink to="/timeline" className={navLink}>
            Timeline
          </NavLink>
          <NavLink to="/writers-unblock" className={navLink}>
            Writer's Un-block
          </NavLink>
          {isAdmin(user) ? (
            // On phones there is no room: admins reach it from the user panel's Admin button.
            <NavLink to="/admin" className={(state) => cn(navLink(state), "hidden sm:inline-block")}>
              Admin Dashboard
            </NavLink>
          ) : null}
        </div>
        {/* Docked here, not floating: it covers nothing of the page on a phone or a desktop. */}
        <HelpAssistant />
        {user ? (
          <>
            <NotificationBell unread={unread} />
            <UserPanel user={user} />
          </>
        ) : (
          <div className="flex items-center gap-2">
            <Button asChild variant="ghost" size="sm">
              <Link to="/auth/login">Login</Link>
            </Button>
            <Button asChild size="sm">
              <Link to="/auth/register">Register</Link>
            </Button>
          </div>
        )}
      </nav>
    </header>
  );
}

/**
 * The inbox's bell with the unread count (read with the session, so it is right on the first paint); after
 * hydration its live part keeps the count current (a new page's count wins again).
 */
function NotificationBell({ unread: loaded }: { unread: number }) {
  const [live, setLive] = useState<number>();
  // A new page's count (read with its session) replaces the live one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the loaded count changes.
  useEffect(() => setLive(undefined), [loaded]);
  useEffect(() => {
    let stop: (() => void) | undefined;
    let gone = false;
    // Once the hydrated page is idle: nothing of it is in the first paint's scripts.
    const cancel = whenIdleOnline(
      () =>
        void import("~/features/notifications/bell-live").then((m) => {
          if (!gone) stop = m.watchUnread(setLive);
        }),
      3000,
    );
    return () => {
      gone = true;
      cancel();
      stop?.();
    };
  }, []);
  const unread = live ?? loaded;
  return (
    <Link
      to="/notifications"
      aria-label={unread ? `Notifications (${unread} unread)` : "Notifications"}
      className="relative rounded-md p-2 text-stone-700 hover:bg-stone-100"
      data-testid="notification-bell"
    >
      <Bell aria-hidden="true" className="h-5 w-5" />
      {unread ? (
        <span className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-red-700 px-1 text-center text-[10px] leading-4 font-bold text-white">
          {unread}
        </span>
      ) : null}
    </Link>
  );
}

const accountPopover = onDemand(() => import("~/features/account/account-menu").then((m) => m.AccountMenu));

/** The account panel's popover code loads on first use. */
function UserPanel({ user }: { user: PublicUser }) {
  return <LazyPopup component={accountPopover} props={{ user }} haspopup="dialog" trigger={(t) => <AccountTrigger user={user} {...t} />} />;
}
