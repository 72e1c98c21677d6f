import { CheckCircle2 } from "lucide-react";
import { Link } from "react-router";
import * as verification from "../../../worker/services/email-verification";
import { HttpError } from "../../../worker/lib/errors";
import { AuthCard, withReturn } from "~/features/auth/auth-card";
import { Button } from "~/ui/button";
import { useResendVerification } from "~/features/account/use-resend-verification";
import { app, returnAddress, sessionUser } from "~/lib/session.server";
import type { Route } from "./+types/verify-email";

export const meta = () => [{ title: "Verify email · StoryWeave" }];

// The link from the email is a plain GET: the loader verifies, so it works without JavaScript.
export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const { db, env } = app(context);
  const user = sessionUser(context);
  try {
    await verification.verifyEmail(db, token, env.ADMIN_EMAILS);
    // Where the writer was going when they registered (kept in the emailed link).
    return { verified: true as const, signedIn: Boolean(user), next: returnAddress(request) };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    // Resend only makes sense for a signed-in writer whose address is still unverified.
    return { verified: false as const, signedIn: Boolean(user), canResend: Boolean(user && !user.isEmailVerified), message: error.message };
  }
}

export default function VerifyEmail({ loaderData }: Route.ComponentProps) {
  return (
    <main className="flex min-h-[calc(100vh-4rem)] items-start justify-center px-4 py-12 sm:py-20">
      <div className="w-full max-w-md">
        {loaderData.verified ? <Verified signedIn={loaderData.signedIn} next={loaderData.next} /> : <Invalid {...loaderData} />}
      </div>
    </main>
  );
}

function Verified({ signedIn, next }: { signedIn: boolean; next: string | null }) {
  return (
    <AuthCard title="Your email is verified" description="Thank you: your StoryWeave account is confirmed.">
      <p className="mb-4 flex items-center gap-2 text-sm text-emerald-800">
        <CheckCircle2 aria-hidden="true" className="h-4 w-4" /> Email verified
      </p>
      <Button asChild className="w-full">
        {signedIn ? (
          <Link to={next ?? "/timeline"}>{next ? "Continue" : "Continue to your timelines"}</Link>
        ) : (
          <Link to={withReturn("/auth/login", next)}>Go to Login</Link>
        )}
      </Button>
    </AuthCard>
  );
}

function Invalid({ signedIn, canResend, message }: { signedIn: boolean; canResend: boolean; message: string }) {
  const resend = useResendVerification();
  return (
    <AuthCard title="Invalid or Expired Link" description={message}>
      <div className="flex flex-col gap-2 sm:flex-row">
        {canResend ? (
          <Button className="flex-1" disabled={resend.pending} onClick={() => void resend.run()}>
            {resend.pending ? "Sending..." : "Resend email"}
          </Button>
        ) : null}
        <Button asChild variant="outline" className="flex-1">
          {signedIn ? <Link to="/timeline">Go to your timelines</Link> : <Link to="/auth/login">Go to Login</Link>}
        </Button>
      </div>
      {!signedIn ? <p className="mt-4 text-sm text-stone-600">Sign in to have a new verification link sent.</p> : null}
    </AuthCard>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/ui/error-boundary";
