import { BadgeCheck, CalendarDays, Crown, Mail, MailWarning, ShieldCheck, User } from "lucide-react";
import { useState } from "react";
import { redirect } from "react-router";
import { AccountDataCard } from "~/features/account/account-data";
import { AccountDeleteCard } from "~/features/account/account-delete";
import { AccountPasswordCard } from "~/features/account/account-password";
import { AccountProfileForm } from "~/features/account/account-profile";
import { NotifyEmailSetting } from "~/features/account/notify-email";
import { OwnAiModelCard } from "~/features/account/own-ai-model";
import { AdminUsers } from "~/features/admin/admin-users";
import { SignInMethodsCard } from "~/features/account/sign-in-methods";
import { UsageChart } from "~/features/admin/usage-chart";
import { OnlineOnlyLink, useOfflineLock } from "~/features/offline/offline-lock";
import { Page, PageHeading } from "~/ui/page";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/ui/card";
import { ConfirmDialog } from "~/ui/dialog";
import { useMutation } from "~/lib/use-mutation";
import { useResendVerification } from "~/features/account/use-resend-verification";
import { client, errorMessage, unwrap } from "~/lib/client";
import { app, flashCookie, requireUser } from "~/lib/session.server";
import { showToast } from "~/lib/toast";
import { HttpError } from "../../worker/lib/errors";
import { confirmUpgrade } from "../../worker/services/billing";
import { signInMethodsOf } from "~/lib/sign-in-methods.server";
import { monthlyUsage } from "../../worker/services/ai";
import { isPremium } from "../../worker/services/plans";
import { toPublicUser } from "../../worker/services/users";
import type { Route } from "./+types/account";

export const meta = () => [{ title: "Account · StoryWeave" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, env } = app(context);
  const sessionId = new URL(request.url).searchParams.get("session_id");
  if (sessionId) {
    // Back from checkout: confirm with Stripe (idempotent), then drop session_id from the address.
    let toast: { title: string; description?: string; variant?: "destructive" };
    try {
      await confirmUpgrade(db, env, user, sessionId.slice(0, 255));
      toast = { title: "Plan changed", description: "Welcome to Premium! Your subscription is active." };
    } catch (error) {
      const message = error instanceof HttpError ? error.message : "Failed to upgrade subscription";
      toast = { title: "Subscription Error", description: message, variant: "destructive" };
    }
    throw redirect("/account", { headers: { "Set-Cookie": flashCookie(request, toast) } });
  }
  return {
    user: toPublicUser(user),
    premium: isPremium(user),
    isAdmin: user.role === "admin",
    hasPassword: Boolean(user.hashedPassword),
    notifyEmail: user.notifyEmail,
    signInMethods: await signInMethodsOf(context),
    aiUsage: await monthlyUsage(db, user.id),
  };
}

const longDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });

export default function Account({ loaderData }: Route.ComponentProps) {
  const { user, premium, isAdmin, signInMethods } = loaderData;
  const [confirming, setConfirming] = useState(false);
  const billing = useOfflineLock();
  const downgrade = useMutation(() => unwrap(client.api.subscription.downgrade.$post()), {
    success: { title: "Plan changed", description: "You're now on the Free plan." },
    error: (error) =>
      showToast({
        title: "Subscription change failed",
        description: errorMessage(error, "Failed to downgrade subscription"),
        variant: "destructive",
      }),
    onSuccess: () => setConfirming(false),
  });
  const resend = useResendVerification();
  const pending = downgrade.pending;
  const switchToFree = () => void downgrade.run();

  return (
    <Page className="max-w-4xl">
      <PageHeading>Account</PageHeading>
      <div className="grid gap-6 md:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Profile</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="space-y-3 text-sm">
              <div className="flex items-center gap-2">
                <User aria-hidden="true" className="h-4 w-4 text-stone-500" />
                <dt className="sr-only">Name</dt>
                <dd className="font-medium">{user.name ?? "Unnamed User"}</dd>
              </div>
              <div className="flex items-center gap-2">
                <Mail aria-hidden="true" className="h-4 w-4 text-stone-500" />
                <dt className="sr-only">Email</dt>
                <dd>{user.email}</dd>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <dt className="sr-only">Email status</dt>
                <dd data-testid="email-status">
                  {user.isEmailVerified ? (
                    <Badge variant="success">
                      <BadgeCheck aria-hidden="true" className="mr-1 h-3.5 w-3.5" /> Email verified
                    </Badge>
                  ) : (
                    <Badge variant="destructive">
                      <MailWarning aria-hidden="true" className="mr-1 h-3.5 w-3.5" /> Email not verified
                    </Badge>
                  )}
                </dd>
                {user.isEmailVerified ? null : (
                  <dd>
                    <Button size="sm" variant="outline" disabled={resend.pending} onClick={() => void resend.run()}>
                      {resend.pending ? "Sending..." : "Resend email"}
                    </Button>
                  </dd>
                )}
              </div>
              <div className="flex items-center gap-2">
                <CalendarDays aria-hidden="true" className="h-4 w-4 text-stone-500" />
                <dt className="text-stone-600">Member since</dt>
                <dd>{longDate(user.createdAt)}</dd>
              </div>
            </dl>
            <AccountProfileForm name={user.name} />
            <NotifyEmailSetting initial={loaderData.notifyEmail} />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Subscription</CardTitle>
          </CardHeader>
          <CardContent className="space-y-4 text-sm">
            <div className="flex items-center gap-2">
              <span className="text-stone-600">Current plan:</span>
              {premium ? (
                <Badge variant="success" data-testid="current-plan">
                  <Crown aria-hidden="true" className="h-3.5 w-3.5" /> Premium
                </Badge>
              ) : (
                <Badge variant="secondary" data-testid="current-plan">
                  Free
                </Badge>
              )}
            </div>
            <p>
              <span className="text-stone-600">Renewal date: </span>
              {premium ? (user.subscriptionEndDate ? longDate(user.subscriptionEndDate) : "No end date") : "—"}
            </p>
            <div className="flex flex-wrap items-center gap-2">
              {premium ? (
                <>
                  <Button variant="outline" onClick={() => setConfirming(true)} {...billing.lock}>
                    Switch to Free
                  </Button>
                  {billing.note}
                </>
              ) : (
                <OnlineOnlyLink to="/upgrade">Upgrade to Premium</OnlineOnlyLink>
              )}
              <OnlineOnlyLink to="/upgrade" variant="ghost">
                View plan details
              </OnlineOnlyLink>
            </div>
          </CardContent>
        </Card>
      </div>

      <SignInMethodsCard methods={signInMethods} />

      <AccountPasswordCard hasPassword={loaderData.hasPassword} />

      <Card className="mt-6">
        <CardHeader>
          <CardTitle>AI uses this month</CardTitle>
        </CardHeader>
        <CardContent>
          <UsageChart days={loaderData.aiUsage.days} total={loaderData.aiUsage.total} caption="Completed AI requests this month" />
        </CardContent>
      </Card>

      <OwnAiModelCard />

      <AccountDataCard />
      <AccountDeleteCard email={user.email} hasPassword={loaderData.hasPassword} />

      {isAdmin ? (
        <>
          <Card className="mt-6">
            <CardHeader>
              <CardTitle className="flex items-center gap-2">
                <ShieldCheck aria-hidden="true" className="h-5 w-5 text-brand-600" /> Admin Dashboard
              </CardTitle>
            </CardHeader>
            <CardContent className="text-sm">
              <p className="text-stone-600">Manage users, the AI key and payment keys.</p>
              <div className="mt-3 flex items-center gap-2">
                <OnlineOnlyLink to="/admin">Open Admin Dashboard</OnlineOnlyLink>
              </div>
            </CardContent>
          </Card>
          <section aria-labelledby="account-users" className="mt-6">
            <h2 id="account-users" className="mb-3 text-lg font-semibold">
              Users
            </h2>
            <AdminUsers compact />
          </section>
        </>
      ) : null}

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Switch to the Free plan?"
        description="Your Premium subscription will be cancelled. Free allows 3 timelines, no sharing and 3 AI uses per session."
        confirmLabel="Switch to Free"
        pendingLabel="Switching..."
        pending={pending}
        onConfirm={() => void switchToFree()}
      />
    </Page>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
