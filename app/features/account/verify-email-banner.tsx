import { MailWarning, X } from "lucide-react";
import { useState } from "react";
import { Button } from "~/ui/button";
import { useResendVerification } from "~/features/account/use-resend-verification";

/** Signed-in pages: a reminder for an unverified address, with 'Resend email'; dismissible for this page view. */
export function VerifyEmailBanner() {
  const [dismissed, setDismissed] = useState(false);
  const resend = useResendVerification();
  if (dismissed) return null;
  return (
    <section
      aria-label="Email verification"
      className="border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900"
      data-testid="verify-email-banner"
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2">
        <MailWarning aria-hidden="true" className="h-4 w-4 shrink-0" />
        <p className="flex-1">
          <strong className="font-semibold">Please verify your email</strong>: open the link we sent to your inbox.
        </p>
        <Button size="sm" variant="outline" disabled={resend.pending} onClick={() => void resend.run()}>
          {resend.pending ? "Sending..." : "Resend email"}
        </Button>
        <Button size="icon" variant="ghost" aria-label="Dismiss" onClick={() => setDismissed(true)}>
          <X aria-hidden="true" className="h-4 w-4" />
        </Button>
      </div>
    </section>
  );
}
