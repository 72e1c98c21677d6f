import { useEffect } from "react";
import { Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { RegisterSchema } from "../../../db/domain/validation";
import { sessionCookie } from "../../../worker/lib/cookies";
import { createMailer } from "../../../worker/lib/mailer";
import { clientKey } from "../../../worker/lib/request-auth";
import * as auth from "../../../worker/services/auth";
import { previewInvitation } from "../../../worker/services/invitations";
import { configuredProviders } from "../../../worker/services/oauth";
import { createLimiter } from "../../../worker/services/rate-limits";
import { SESSION_TTL_MS } from "../../../worker/services/sessions";
import { AuthCard, FormAlert, OAuthButtons, withReturn } from "~/features/auth/auth-card";
import { Button } from "~/ui/button";
import { Field } from "~/ui/input";
import { formError, parseForm } from "~/lib/form.server";
import { app, flashCookie, returnAddress } from "~/lib/session.server";
import { showToast } from "~/lib/toast";
import type { Route } from "./+types/register";

export const meta = () => [{ title: "Register · StoryWeave" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const invite = await previewInvitation(app(context).db, new URL(request.url).searchParams.get("invite"));
  return { providers: configuredProviders(app(context).env), redirectTo: returnAddress(request), invite };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, RegisterSchema);
  if (!form.ok) return form.response;
  const { db, env, ctx } = app(context);
  try {
    const result = await auth.register(
      { db, secret: env.APP_SECRET, adminEmails: env.ADMIN_EMAILS },
      form.data,
      {
        origin: new URL(request.url).origin,
        mailer: createMailer(env),
        defer: (p) => ctx.waitUntil(p),
        returnTo: returnAddress(request),
      },
      createLimiter(db, env, clientKey(request)),
    );
    const headers = new Headers();
    headers.append("Set-Cookie", sessionCookie(request, result.token, SESSION_TTL_MS / 1000));
    // Invited: the timeline opens once the address is verified (the emailed link comes back to it).
    const invite = await previewInvitation(db, new URL(request.url).searchParams.get("invite"));
    const invited = invite && invite.email.toLowerCase() === form.data.email.toLowerCase();
    const welcome = invited
      ? { title: "Welcome!", description: `Verify your email with the link we sent, and "${invite.timelineTitle}" opens for you.` }
      : { title: "Welcome!", description: "Your account is ready." };
    headers.append("Set-Cookie", flashCookie(request, welcome));
    return redirect(invited ? "/timeline" : (returnAddress(request) ?? "/"), { headers });
  } catch (error) {
    return formError(error);
  }
}

export default function Register() {
  const loaderData = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  useEffect(() => {
    if (result?.formError) {
      showToast({ title: "Registration failed", description: "Please try again", variant: "destructive" });
    }
  }, [result]);

  return (
    <AuthCard title="Register" description="Create your StoryWeave account and start weaving stories.">
      {loaderData.invite ? (
        <p className="mb-4 rounded-md border border-brand-200 bg-brand-50 p-3 text-sm" data-testid="invitation">
          {loaderData.invite.inviterName} invited you to “{loaderData.invite.timelineTitle}”. Register with {loaderData.invite.email} and
          verify it to open the timeline.
        </p>
      ) : null}
      <Form method="post" noValidate className="space-y-4">
        {result?.formError ? <FormAlert>{result.formError}</FormAlert> : null}
        <Field id="name" name="name" label="Name" autoComplete="name" required error={result?.fieldErrors?.name} />
        <Field
          id="email"
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          required
          defaultValue={loaderData.invite?.email}
          error={result?.fieldErrors?.email}
        />
        <Field
          id="password"
          name="password"
          type="password"
          label="Password"
          autoComplete="new-password"
          required
          error={result?.fieldErrors?.password}
        />
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Creating account..." : "Register"}
        </Button>
        <p className="text-center text-sm text-stone-600">
          Already have an account?{" "}
          <Link to={withReturn("/auth/login", loaderData.redirectTo)} className="font-medium text-brand-700 hover:underline">
            Login
          </Link>
        </p>
      </Form>
      <OAuthButtons providers={loaderData.providers} redirectTo={loaderData.redirectTo} />
    </AuthCard>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
