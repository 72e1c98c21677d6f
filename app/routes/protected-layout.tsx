import { Outlet } from "react-router";
import { VerifyEmailBanner } from "~/components/verify-email-banner";
import { requireUser } from "~/lib/session.server";
import type { Route } from "./+types/protected-layout";

// Runs on the server before any child loader: anonymous visitors get a redirect, never the page.
export const middleware: Route.MiddlewareFunction[] = [
  ({ context }) => {
    requireUser(context);
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

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
