import { createMailer } from "../../../worker/lib/mailer";
import { useEffect } from "react";
import { data, Form, Link, redirect, useActionData, useNavigation } from "react-router";
import { ManualTokenSchema, ResetPasswordFormSchema, messages } from "../../../db/domain/validation";
import * as auth from "../../../worker/services/password-reset";
import { AuthCard, FormAlert } from "~/features/auth/auth-card";
import { Button } from "~/ui/button";
import { Field } from "~/ui/input";
import { formError, parseForm } from "~/lib/form.server";
import { app } from "~/lib/session.server";
import { errorToast } from "~/lib/toast";
import type { Route } from "./+types/reset-password";

export const meta = () => [{ title: "Reset password · StoryWeave" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token")?.trim() ?? "";
  if (!token) return { step: "enter-token" as const };
  const valid = await auth.isResetTokenValid(app(context).db, token);
  return valid ? { step: "new-password" as const, token } : { step: "invalid" as const };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = new URL(request.url);
  const intent = url.searchParams.get("intent");
  if (intent === "verify") {
    const form = await parseForm(request, ManualTokenSchema);
    if (!form.ok) return form.response;
    return redirect(`/auth/reset-password?token=${encodeURIComponent(form.data.token)}`);
  }
  const token = url.searchParams.get("token")?.trim();
  if (!token) return data({ formError: messages.missingToken, status: 400 }, 400);
  const form = await parseForm(request, ResetPasswordFormSchema);
  if (!form.ok) return form.response;
  const { db, env, room, ctx } = app(context);
  const mail = { origin: new URL(request.url).origin, mailer: createMailer(env), defer: (p: Promise<unknown>) => ctx.waitUntil(p) };
  try {
    // The page follows the product's flow (success screen → 'Go to Login'), so it does not sign in;
    // the API call (for API clients) does.
    await auth.resetPassword({ db, room, mail, secret: env.APP_SECRET, adminEmails: env.ADMIN_EMAILS }, token, form.data.password, {
      signIn: false,
    });
    return { done: true as const };
  } catch (error) {
    return formError(error);
  }
}

export default function ResetPassword({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>() as { done?: boolean; formError?: string; fieldErrors?: Record<string, string> } | undefined;
  const pending = useNavigation().state === "submitting";
  useEffect(() => {
    if (result?.formError) errorToast(result.formError || "Failed to reset password");
  }, [result]);

  if (result?.done) {
    return (
      <AuthCard
        title="Password Reset Successful"
        description="Your password has been changed and every session was signed out. Sign in with your new password."
      >
        <Button asChild className="w-full">
          <Link to="/auth/login">Go to Login</Link>
        </Button>
      </AuthCard>
    );
  }

  if (loaderData.step === "invalid" || (result?.formError && result.formError === messages.invalidResetToken)) {
    return (
      <AuthCard title="Invalid or Expired Link" description={messages.invalidResetToken}>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button asChild className="flex-1">
            <Link to="/auth/forgot-password">Request a New Link</Link>
          </Button>
          <Button asChild variant="outline" className="flex-1">
            <Link to="/auth/login">Back to Login</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }

  if (loaderData.step === "enter-token") {
    return (
      <AuthCard title="Reset Password" description={messages.missingToken}>
        <Form method="post" action="?intent=verify" noValidate className="space-y-4">
          <p className="text-sm text-stone-600">Already have a reset token? Paste the token from your email below.</p>
          <Field id="token" name="token" label="Reset Token" autoComplete="one-time-code" required error={result?.fieldErrors?.token} />
          <Button type="submit" className="w-full" disabled={pending}>
            {pending ? "Verifying..." : "Verify Token"}
          </Button>
          <p className="text-center text-sm">
            <Link to="/auth/forgot-password" className="font-medium text-brand-700 hover:underline">
              Request a new reset link
            </Link>
          </p>
        </Form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Set a New Password" description="Choose a new password of at least 6 characters.">
      <Form method="post" action={`?token=${encodeURIComponent(loaderData.token)}`} noValidate className="space-y-4">
        {result?.formError ? <FormAlert>{result.formError}</FormAlert> : null}
        <Field
          id="password"
          name="password"
          type="password"
          label="New Password"
          autoComplete="new-password"
          required
          error={result?.fieldErrors?.password}
        />
        <Field
          id="confirmPassword"
          name="confirmPassword"
          type="password"
          label="Confirm Password"
          autoComplete="new-password"
          required
          error={result?.fieldErrors?.confirmPassword}
        />
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Resetting..." : "Reset Password"}
        </Button>
      </Form>
    </AuthCard>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
