import { useEffect } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
import { ForgotPasswordSchema, messages } from "../../../db/domain/validation";
import { createMailer } from "../../../worker/lib/mailer";
import { clientKey } from "../../../worker/lib/request-auth";
import { requestPasswordReset } from "../../../worker/services/password-reset";
import { createLimiter } from "../../../worker/services/rate-limits";
import { AuthCard, FormAlert } from "~/features/auth/auth-card";
import { Button } from "~/ui/button";
import { Field } from "~/ui/input";
import { formError, parseForm } from "~/lib/form.server";
import { app } from "~/lib/session.server";
import { errorToast } from "~/lib/toast";
import type { Route } from "./+types/forgot-password";

export const meta = () => [{ title: "Forgot password · StoryWeave" }];

export async function action({ request, context }: Route.ActionArgs) {
  const form = await parseForm(request, ForgotPasswordSchema);
  if (!form.ok) return form.response;
  const { db, env, ctx } = app(context);
  try {
    await requestPasswordReset(
      db,
      form.data.email,
      new URL(request.url).origin,
      createMailer(env),
      (p) => ctx.waitUntil(p),
      createLimiter(db, env, clientKey(request)),
    );
    return { sent: true as const };
  } catch (error) {
    return formError(error);
  }
}

export default function ForgotPassword() {
  const result = useActionData<typeof action>();
  const pending = useNavigation().state === "submitting";
  const failed = result && "formError" in result ? result.formError : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each failed submission (a new `result`) toasts again, even with the same message
  useEffect(() => {
    if (failed) errorToast("Failed to request password reset");
  }, [failed, result]);

  if (result && "sent" in result) {
    return (
      <AuthCard title="Check Your Email" description={messages.forgotPassword}>
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button asChild className="flex-1">
            <Link to="/auth/reset-password">Enter Reset Token</Link>
          </Button>
          <Button asChild variant="outline" className="flex-1">
            <Link to="/auth/login">Back to Login</Link>
          </Button>
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Forgot Password" description="Enter the email of your account and we'll send you a link to reset your password.">
      <Form method="post" noValidate className="space-y-4">
        {failed ? <FormAlert>{failed}</FormAlert> : null}
        <Field
          id="email"
          name="email"
          type="email"
          label="Email"
          autoComplete="email"
          required
          error={result && "fieldErrors" in result ? result.fieldErrors?.email : undefined}
        />
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? "Sending..." : "Send Reset Link"}
        </Button>
        <p className="text-center text-sm">
          <Link to="/auth/login" className="font-medium text-brand-700 hover:underline">
            Back to Login
          </Link>
        </p>
      </Form>
    </AuthCard>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
