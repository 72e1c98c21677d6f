import { useMutation } from "~/lib/use-mutation";
import { client, unwrap } from "~/lib/client";

/** 'Resend email': a new verification link (the server's message on failure, e.g. the hourly limit). */
export function useResendVerification() {
  return useMutation(() => unwrap(client.api.auth["resend-verification"].$post()), {
    success: { title: "Verification email sent", description: "Open the link in the email to verify your address." },
    error: "Failed to send the verification email",
    revalidate: false,
  });
}
