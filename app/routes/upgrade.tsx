import { Check, Crown, Sparkles } from "lucide-react";
import { OnlineOnlyLink, useOfflineLock } from "~/features/offline/offline-lock";
import { Page, PageHeading } from "~/ui/page";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { useMutation } from "~/lib/use-mutation";
import { ApiError, client, errorMessage, unwrap } from "~/lib/client";
import { app, requireUser } from "~/lib/session.server";
import { showToast } from "~/lib/toast";
import { isPremium } from "../../worker/services/plans";
import { stripeStatus } from "../../worker/services/billing";
import type { Route } from "./+types/upgrade";

export const meta = () => [{ title: "Upgrade · StoryWeave" }];

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, env } = app(context);
  return { premium: isPremium(user), paymentsConfigured: (await stripeStatus(db, env)).configured };
}

const freeFeatures = ["Up to 3 timelines", "Basic mind mapping", "Limited AI writing suggestions (3 per session)"];
const premiumFeatures = [
  "Unlimited timelines",
  "Advanced mind mapping",
  "Full AI writing assistance",
  "Priority support",
  "Collaborative features: share timelines and edit together live",
];

function Features({ items }: { items: string[] }) {
  return (
    <ul className="mt-4 space-y-2 text-sm">
      {items.map((f) => (
        <li key={f} className="flex items-start gap-2">
          <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600" /> {f}
        </li>
      ))}
    </ul>
  );
}

export default function Upgrade({ loaderData }: Route.ComponentProps) {
  const createCheckout = useMutation(() => unwrap(client.api.subscription["create-checkout-session"].$post()), {
    error: (error) =>
      error instanceof ApiError && error.status === 401
        ? showToast({
            title: "Authentication Error",
            description: "You need to be logged in to upgrade your subscription",
            variant: "destructive",
          })
        : showToast({
            title: "Subscription Error",
            description: errorMessage(error, "Failed to create checkout session"),
            variant: "destructive",
          }),
    revalidate: false,
    onSuccess: ({ url }: { url?: string | null }) => {
      if (!url) {
        showToast({ title: "Subscription Error", description: "No checkout URL received from server", variant: "destructive" });
        return;
      }
      // Checkout opens in a new window; if a popup blocker refuses, go there in this one.
      const checkoutWindow = window.open(url, "_blank");
      if (checkoutWindow) checkoutWindow.opener = null;
      else window.location.assign(url);
    },
  });
  const pending = createCheckout.pending;
  const offline = useOfflineLock();
  const checkout = () => void createCheckout.run();

  if (loaderData.premium) {
    return (
      <Page className="max-w-3xl">
        <PageHeading>Upgrade</PageHeading>
        <Card className="p-6">
          <Badge variant="success">
            <Crown aria-hidden="true" className="h-3.5 w-3.5" /> Premium
          </Badge>
          <h2 className="mt-3 font-serif text-2xl font-bold">You're on Premium</h2>
          <p className="mt-1 text-stone-600">Everything StoryWeave offers is yours:</p>
          <Features items={premiumFeatures} />
          <div className="mt-6 flex items-center gap-2">
            <OnlineOnlyLink to="/account" variant="outline">
              Manage Subscription
            </OnlineOnlyLink>
          </div>
        </Card>
      </Page>
    );
  }

  return (
    <Page className="max-w-4xl">
      <PageHeading>Upgrade</PageHeading>
      <p className="-mt-4 mb-6 text-stone-600">Choose the plan that fits your writing.</p>
      {!loaderData.paymentsConfigured ? (
        <div role="status" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="font-semibold">Payments are not configured</p>
          <p className="mt-1">
            Online checkout isn't available yet. An admin can set up Stripe in the Admin Dashboard, or grant Premium directly.
          </p>
        </div>
      ) : null}
      <div className="grid gap-6 md:grid-cols-2">
        <Card className="p-6">
          <h2 className="font-serif text-2xl font-bold">Free</h2>
          <p className="mt-2">
            <span className="text-3xl font-bold">$0</span>
          </p>
          <Features items={freeFeatures} />
          <p className="mt-6 text-sm font-medium text-stone-600">Your current plan</p>
        </Card>
        <Card className="border-brand-300 p-6 ring-2 ring-brand-200">
          <h2 className="flex items-center gap-2 font-serif text-2xl font-bold">
            Premium <Sparkles aria-hidden="true" className="h-5 w-5 text-brand-600" />
          </h2>
          <p className="mt-2">
            <span className="text-3xl font-bold">$9.99</span> <span className="text-stone-600">per month</span>
          </p>
          <Features items={premiumFeatures} />
          <Button className="mt-6 w-full" onClick={checkout} disabled={pending || !loaderData.paymentsConfigured} {...offline.lock}>
            {pending ? "Opening checkout..." : "Upgrade to Premium"}
          </Button>
          {offline.note ? <p className="mt-2">{offline.note}</p> : null}
          <p className="mt-2 text-xs text-stone-600">Checkout opens in a new window. Cancel any time from your account.</p>
        </Card>
      </div>
    </Page>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
