import { Outlet } from "react-router";
import { requireAdmin } from "~/lib/session.server";
import type { Route } from "./+types/layout";

// Non-admins are sent to /.
export const middleware: Route.MiddlewareFunction[] = [
  ({ context }) => {
    requireAdmin(context);
  },
];

export default function AdminLayout() {
  return <Outlet />;
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
