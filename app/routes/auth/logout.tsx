import { redirect } from "react-router";
import { clearSessionCookie } from "../../../worker/lib/cookies";
import { logout } from "../../../worker/services/sessions";
import { app } from "~/lib/session.server";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const { db, room, auth } = app(context);
  if (auth.token) await logout({ db, room }, auth.token);
  return redirect("/auth/login", { headers: { "Set-Cookie": clearSessionCookie(request) } });
}

export function loader() {
  return redirect("/");
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
