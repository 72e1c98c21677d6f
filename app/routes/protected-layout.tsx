import { Suspense, lazy } from "react";
import { Outlet } from "react-router";
import { requireUser, requireUserOrLogin } from "~/lib/session.server";
import type { Route } from "./+types/protected-layout";

// Runs on the server before any child loader: anonymous visitors get a redirect to the login page (which
// brings them back to this page afterwards), never the page.
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => {
    requireUserOrLogin(request, context);
  },
];

// Only writers who have not verified their address see the banner: its code is not in every page's first paint.
const VerifyEmailBanner = lazy(() => import("~/features/account/verify-email-banner").then((m) => ({ default: m.VerifyEmailBanner })));

export function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { isEmailVerified: user.isEmailVerified };
}

export default function ProtectedLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      {loaderData.isEmailVerified ? null : (
        <Suspense fallback={null}>
          <VerifyEmailBanner />
        </Suspense>
      )}
      <Outlet />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
