import { Outlet } from "react-router";
import { VerifyEmailBanner } from "~/features/account/verify-email-banner";
import { requireUser, requireUserOrLogin } from "~/lib/session.server";
import type { Route } from "./+types/protected-layout";

// Runs on the server before any child loader: anonymous visitors get a redirect to the login page (which
// brings them back to this page afterwards), never the page.
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => {
    requireUserOrLogin(request, context);
  },
];

export function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { isEmailVerified: user.isEmailVerified };
}

export default function ProtectedLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      {loaderData.isEmailVerified ? null : <VerifyEmailBanner />}
      <Outlet />
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
