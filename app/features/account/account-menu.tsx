import { Popover } from "radix-ui";
import { Link } from "react-router";
import { AccountTrigger } from "~/features/account/account-trigger";
import { LogoutForm } from "~/features/account/logout-form";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { Button } from "~/ui/button";
import { UserAvatar } from "~/ui/user-avatar";
import { isAdmin, type PublicUser } from "~/lib/user";

/** The account panel: Account, Upgrade, Trash, Admin (admins) and Logout. */
export function AccountMenu({ user, defaultOpen }: { user: PublicUser; defaultOpen?: boolean }) {
  // Billing needs the network: offline, 'Upgrade' is disabled and says so under the buttons.
  const billing = useOfflineLock("col-span-2 text-center");
  return (
    <Popover.Root defaultOpen={defaultOpen}>
      <Popover.Trigger asChild>
        <AccountTrigger user={user} />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content align="end" sideOffset={8} className="z-50 w-72 rounded-xl border border-stone-200 bg-white p-4 shadow-lg">
          <div className="flex items-center gap-3">
            <UserAvatar user={user} className="h-11 w-11" />
            <div className="min-w-0">
              <p className="truncate font-semibold">{user.name ?? "Unnamed User"}</p>
              <p className="truncate text-sm text-stone-600">{user.email}</p>
            </div>
          </div>
          <div className="mt-4 grid grid-cols-2 gap-2">
            <Popover.Close asChild>
              <Button asChild variant="outline" size="sm">
                <Link to="/account">Account</Link>
              </Button>
            </Popover.Close>
            {billing.offline ? (
              <Button variant="outline" size="sm" {...billing.lock}>
                Upgrade
              </Button>
            ) : (
              <Popover.Close asChild>
                <Button asChild variant="outline" size="sm">
                  <Link to="/upgrade">Upgrade</Link>
                </Button>
              </Popover.Close>
            )}
            <Popover.Close asChild>
              <Button asChild variant="outline" size="sm">
                <Link to="/trash">Trash</Link>
              </Button>
            </Popover.Close>
            {isAdmin(user) ? (
              <Popover.Close asChild>
                <Button asChild variant="outline" size="sm">
                  <Link to="/admin">Admin</Link>
                </Button>
              </Popover.Close>
            ) : null}
            <LogoutForm className={isAdmin(user) ? "col-span-2" : ""}>
              <Button type="submit" variant="destructive" size="sm" className="w-full">
                Logout
              </Button>
            </LogoutForm>
            {billing.note}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
