import { Link } from "react-router";
import { AdminUsers } from "~/features/admin/admin-users";
import { AiKeyForm } from "~/features/admin/ai-key-form";
import { Page, PageHeading } from "~/ui/page";
import { StripeKeysForm } from "~/features/admin/admin-stripe-keys";
import { Card, CardContent, CardHeader, CardTitle } from "~/ui/card";
import { UsageChart } from "~/features/admin/usage-chart";
import { app, requireAdmin } from "~/lib/session.server";
import { adminUsage } from "../../../worker/services/ai";
import type { Route } from "./+types/dashboard";

export const meta = () => [{ title: "Admin Dashboard · StoryWeave" }];

export async function loader({ context }: Route.LoaderArgs) {
  requireAdmin(context);
  return { aiUsage: await adminUsage(app(context).db) };
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  return (
    <Page>
      <PageHeading>Admin Dashboard</PageHeading>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>OpenAI API key</CardTitle>
          </CardHeader>
          <CardContent>
            <AiKeyForm />
            <p className="mt-3 text-xs text-stone-600">
              Setup steps are on{" "}
              <Link to="/admin/config" className="text-brand-700 underline">
                OpenAI Configuration
              </Link>
              .
            </p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Payments (Stripe)</CardTitle>
          </CardHeader>
          <CardContent>
            <StripeKeysForm />
          </CardContent>
        </Card>
      </div>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>AI uses (last 30 days)</CardTitle>
        </CardHeader>
        <CardContent>
          <UsageChart
            days={loaderData.aiUsage.days}
            total={loaderData.aiUsage.total}
            caption="Completed AI requests, all writers, last 30 days"
          />
        </CardContent>
      </Card>
      <section aria-labelledby="users-heading" className="mt-8">
        <h2 id="users-heading" className="mb-4 font-serif text-2xl font-bold">
          Users
        </h2>
        <AdminUsers />
      </section>
    </Page>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
