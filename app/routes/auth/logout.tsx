import { redirect } from "react-router";
import { clearSessionCookie } from "../../../worker/lib/cookies";
import { logout } from "../../../worker/services/sessions";
import { loginPathFor } from "../../../db/domain/redirect";
import { app, returnAddress } from "~/lib/session.server";
import type { Route } from "./+types/logout";

export async function action({ request, context }: Route.ActionArgs) {
  const { db, room, auth } = app(context);
  if (auth.token) await logout({ db, room }, auth.token);
  // 'Sign in again' (account page) comes back to where it was asked.
  const back = returnAddress(request);
  return redirect(back ? loginPathFor(back) : "/auth/login", { headers: { "Set-Cookie": clearSessionCookie(request) } });
}

export function loader() {
  return redirect("/");
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
