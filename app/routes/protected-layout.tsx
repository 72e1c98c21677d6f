import { Outlet } from "react-router";
import { requireUser } from "~/lib/session.server";
import type { Route } from "./+types/protected-layout";

// Runs on the server before any child loader: anonymous visitors get a redirect, never the page.
export const middleware: Route.MiddlewareFunction[] = [
  ({ context }) => {
    requireUser(context);
  },
];

export default function ProtectedLayout() {
  return <Outlet />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
