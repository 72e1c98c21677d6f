import { MailWarning, X } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "~/ui/button";
import { useResendVerification } from "~/features/account/use-resend-verification";

/** Signed-in pages: a reminder for an unverified address, with 'Resend email'; dismissible for this page view. */
export function VerifyEmailBanner() {
  const [dismissed, setDismissed] = useState(false);
  // The banner is its own chunk (protected-layout.tsx): in a page rendered on the server it hydrates only once that
  // chunk has loaded, after the rest of the page, and a press before that does nothing. Its buttons are disabled
  // until then (the server's HTML and the first render), so a press is never lost.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
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
        <Button size="sm" variant="outline" disabled={!ready || resend.pending} onClick={() => void resend.run()}>
          {resend.pending ? "Sending..." : "Resend email"}
        </Button>
        <Button size="icon" variant="ghost" aria-label="Dismiss" disabled={!ready} onClick={() => setDismissed(true)}>
          <X aria-hidden="true" className="h-4 w-4" />
        </Button>
      </div>
    </section>
  );
}
