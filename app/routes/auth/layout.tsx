import { Outlet } from "react-router";
import { redirectIfSignedIn } from "~/lib/session.server";
import type { Route } from "./+types/layout";

// Auth pages send signed-in writers to their timelines (before any child loader runs).
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => {
    redirectIfSignedIn(request, context);
  },
];

export default function AuthLayout() {
  return (
    <main className="flex min-h-[calc(100vh-4rem)] items-start justify-center px-4 py-12 sm:py-20">
      <div className="w-full max-w-md">
        <Outlet />
      </div>
    </main>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
