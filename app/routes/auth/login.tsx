import { useEffect } from "react";
import { Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { type OAuthErrorCode, oauthErrors } from "../../../db/domain/sign-in-rules";
import { LoginSchema } from "../../../db/domain/validation";
import { sessionCookie } from "../../../worker/lib/cookies";
import { clientKey } from "../../../worker/lib/request-auth";
import * as auth from "../../../worker/services/auth";
import { configuredProviders } from "../../../worker/services/oauth";
import { createLimiter } from "../../../worker/services/rate-limits";
import { SESSION_TTL_MS } from "../../../worker/services/sessions";
import { AuthCard, FormAlert, OAuthButtons, withReturn } from "~/features/auth/auth-card";
import { Button } from "~/ui/button";
import { Field } from "~/ui/input";
import { formError, parseForm } from "~/lib/form.server";
import { app, flashCookie, returnAddress } from "~/lib/session.server";
import { showToast } from "~/lib/toast";
import type { Route } from "./+types/login";

export const meta = () => [{ title: "Login · StoryWeave" }];

export function loader({ request, context }: Route.LoaderArgs) {
  // A failed OAuth sign-in comes back here with the reason's code (worker/api/oauth.ts).
  const code = new URL(request.url).searchParams.get("oauthError");
  const oauthError = code && Object.hasOwn(oauthErrors, code) ? oauthErrors[code as OAuthErrorCode] : null;
  return { providers: configuredProviders(app(context).env), oauthError, redirectTo: returnAddress(request) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, LoginSchema);
  if (!form.ok) return form.response;
  const { db, env } = app(context);
  try {
    const result = await auth.login(
      { db, secret: env.APP_SECRET, adminEmails: env.ADMIN_EMAILS },
      form.data,
      createLimiter(db, env, clientKey(request)),
    );
    const headers = new Headers();
    headers.append("Set-Cookie", sessionCookie(request, result.token, SESSION_TTL_MS / 1000));
    headers.append("Set-Cookie", flashCookie(request, { title: "Welcome back!", description: "You're signed in." }));
    return redirect(returnAddress(request) ?? "/timeline", { headers });
  } catch (error) {
    return formError(error);
  }
}

export default function Login() {
  const loaderData = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  useEffect(() => {
    if (result?.formError) {
      showToast({
        title: "Login failed",
        description: result.status === 429 ? result.formError : "Please check your credentials and try again",
        variant: "destructive",
      });
    }
  }, [result]);

  return (
    <AuthCard title="Login" description="Welcome back to StoryWeave. Sign in to continue your stories.">
      <Form method="post" noValidate className="space-y-4">
        {result?.formError ? (
          <FormAlert>{result.formError}</FormAlert>
        ) : loaderData.oauthError ? (
          <FormAlert>{loaderData.oauthError}</FormAlert>
        ) : null}
        <Field id="email" name="email" type="email" label="Email" autoComplete="email" required error={result?.fieldErrors?.email} />
        <Field
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="current-password"
          required
          error={result?.fieldErrors?.password}
        />
        <div className="flex justify-end">
          <Link to="/auth/forgot-password" className="text-sm font-medium text-brand-700 hover:underline">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Signing in..." : "Login"}
        </Button>
        <p className="text-center text-sm text-stone-600">
          <Link to={withReturn("/auth/register", loaderData.redirectTo)} className="font-medium text-brand-700 hover:underline">
            Need an account?
          </Link>
        </p>
      </Form>
      <OAuthButtons providers={loaderData.providers} redirectTo={loaderData.redirectTo} />
    </AuthCard>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
