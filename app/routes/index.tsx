import { redirect } from "react-router";
import { sessionUser } from "~/lib/session.server";
import type { Route } from "./+types/index";

export function loader({ context }: Route.LoaderArgs) {
  return redirect(sessionUser(context) ? "/timeline" : "/auth/login");
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
