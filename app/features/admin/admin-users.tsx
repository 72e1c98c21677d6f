import { Crown, RefreshCw } from "lucide-react";
import { useCallback, useEffect, useState } from "react";
import { LogoutForm } from "~/features/account/logout-form";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Spinner } from "~/ui/spinner";
import { useMutation } from "~/lib/use-mutation";
import { ApiError, client, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import type { PublicUser } from "../../../worker/services/users";

const LOAD_FAILED = "Failed to load users. Please verify you have admin access.";

// The list is fresh for 5 minutes, kept 10, and a failed load is retried twice
// (not when the answer is 401/403). Client-only: nothing here runs during server rendering.
const FRESH_MS = 5 * 60_000;
const KEEP_MS = 10 * 60_000;
let cached: { users: PublicUser[]; at: number } | null = null;
const cachedUsers = (maxAge: number) => (cached && Date.now() - cached.at < maxAge ? cached.users : null);

async function fetchUsers(): Promise<PublicUser[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      const users = await unwrap(client.api.admin.users.$get());
      cached = { users, at: Date.now() };
      return users;
    } catch (error) {
      const refused = error instanceof ApiError && (error.status === 401 || error.status === 403);
      if (refused || attempt >= 2) {
        cached = null;
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 500 * (attempt + 1)));
    }
  }
}

const formatDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }) : "Never";

/**
 * The admin user grid: premium toggle, refresh, 'show
 * only admins', total and admin counts, last login per user. Three columns, so the toggle stays
 * on screen on a phone.
 */
export function AdminUsers({ compact = false }: { compact?: boolean }) {
  const [users, setUsers] = useState<PublicUser[] | null>(() => cachedUsers(KEEP_MS));
  const [failed, setFailed] = useState(false);
  const [loading, setLoading] = useState(false);
  const [onlyAdmins, setOnlyAdmins] = useState(false);
  const [pendingId, setPendingId] = useState<number | null>(null);
  const offline = useOfflineLock();

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setUsers(await fetchUsers());
      setFailed(false);
    } catch {
      // this toast and a panel whose 'Go to Login' signs out first.
      setFailed(true);
      errorToast(LOAD_FAILED);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    if (!cachedUsers(FRESH_MS)) void load();
  }, [load]);

  const setPremium = useMutation(
    (user: PublicUser) =>
      unwrap(
        client.api.admin.users[":id"].premium.$post({
          param: { id: String(user.id) },
          json: { premium: user.subscriptionTier !== "premium" },
        }),
      ),
    {
      success: { title: "Success", description: "User premium status updated successfully" },
      error: "Failed to update user premium status",
      // The list is this component's own cache, not loader data.
      revalidate: false,
      onSuccess: (updated) =>
        setUsers((list) => {
          const next = list?.map((u) => (u.id === updated.id ? updated : u)) ?? null;
          if (next && cached) cached = { ...cached, users: next };
          return next;
        }),
    },
  );
  async function togglePremium(user: PublicUser) {
    setPendingId(user.id);
    await setPremium.run(user);
    setPendingId(null);
  }

  if (failed) {
    return (
      <div role="alert" className="rounded-lg border border-stone-200 bg-white p-6 text-center">
        <p className="font-semibold">{LOAD_FAILED}</p>
        <div className="mt-4 flex flex-wrap justify-center gap-2">
          <Button variant="outline" onClick={() => void load()} disabled={loading}>
            <RefreshCw aria-hidden="true" className={loading ? "h-4 w-4 animate-spin" : "h-4 w-4"} /> Try again
          </Button>
          <LogoutForm>
            <Button type="submit">Go to Login</Button>
          </LogoutForm>
        </div>
      </div>
    );
  }

  const shown = (users ?? []).filter((u) => !onlyAdmins || u.role === "admin");
  const admins = (users ?? []).filter((u) => u.role === "admin").length;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <p className="text-sm text-stone-700" aria-live="polite">
          Total users: <span className="font-semibold">{users?.length ?? 0}</span> · Admins: <span className="font-semibold">{admins}</span>
        </p>
        <label className="ml-auto flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={onlyAdmins}
            onChange={(e) => setOnlyAdmins(e.target.checked)}
            className="h-4 w-4 accent-brand-600"
          />
          Show only admins
        </label>
        {offline.note}
        <Button variant="outline" size="sm" onClick={() => void load()} disabled={loading} {...offline.lock}>
          <RefreshCw aria-hidden="true" className={loading ? "h-4 w-4 animate-spin" : "h-4 w-4"} /> Refresh
        </Button>
      </div>
      {users === null ? (
        <Spinner label="Loading users" />
      ) : (
        <div className="overflow-x-auto rounded-lg border border-stone-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Users</caption>
            <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-600">
              <tr>
                <th scope="col" className="px-3 py-3 sm:px-4">
                  User
                </th>
                <th scope="col" className="px-3 py-3 sm:px-4">
                  Plan
                </th>
                <th scope="col" className="px-3 py-3 text-right sm:px-4">
                  Premium
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((u) => {
                const premium = u.subscriptionTier === "premium";
                return (
                  <tr key={u.id} className="border-t border-stone-100" data-testid="admin-user-row">
                    <td className="px-3 py-3 sm:px-4">
                      <p className="flex flex-wrap items-center gap-x-2 font-medium">
                        {u.name ?? "Unnamed User"} {u.role === "admin" ? <Badge>admin</Badge> : null}
                      </p>
                      <p className="break-all text-stone-600">{u.email}</p>
                      {compact ? null : <p className="mt-1 text-xs text-stone-600">Last login: {formatDate(u.lastLogin)}</p>}
                    </td>
                    <td className="px-3 py-3 sm:px-4">
                      {premium ? (
                        <Badge variant="success">
                          <Crown aria-hidden="true" className="h-3 w-3" /> Premium
                        </Badge>
                      ) : (
                        <Badge variant="secondary">Free</Badge>
                      )}
                      {premium && u.subscriptionEndDate ? (
                        <p className="mt-1 text-xs text-stone-600">until {formatDate(u.subscriptionEndDate)}</p>
                      ) : null}
                    </td>
                    <td className="px-3 py-3 text-right sm:px-4">
                      <Button
                        size="sm"
                        className="whitespace-nowrap"
                        variant={premium ? "outline" : "default"}
                        disabled={pendingId === u.id}
                        onClick={() => void togglePremium(u)}
                        aria-label={`${premium ? "Remove premium from" : "Grant premium to"} ${u.email}`}
                        {...offline.lock}
                      >
                        {pendingId === u.id ? "Saving..." : premium ? "Remove Premium" : "Grant Premium"}
                      </Button>
                    </td>
                  </tr>
                );
              })}
              {shown.length === 0 ? (
                <tr>
                  <td colSpan={3} className="px-4 py-6 text-center text-stone-600">
                    No users to show.
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
