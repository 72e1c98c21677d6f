import { KeyRound, Link2 } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { oauthProviderLabels, type OAuthProvider, signInMethodMessages } from "../../../db/domain/sign-in-rules";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/ui/card";
import { ConfirmDialog } from "~/ui/dialog";
import { useMutation } from "~/lib/use-mutation";
import { client, errorMessage, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";

export type SignInMethods = {
  password: boolean;
  providers: { provider: OAuthProvider; linkedAt: string }[];
  /** The providers this server is configured for (the ones a writer can connect). */
  available: { id: OAuthProvider; label: string }[];
  emailVerified: boolean;
  signedInRecently: boolean;
};

// A fixed locale and zone: the server's rendering and the browser's hydration show the same date.
const connectedOn = (iso: string) =>
  new Date(iso).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** The account page's ways to sign in: the password, and each provider (connected with its date and 'Disconnect', or 'Connect'). */
export function SignInMethodsCard({ methods }: { methods: SignInMethods }) {
  // The provider asked about stays set while the dialog closes, so its title does not change mid-animation.
  const [removing, setRemoving] = useState<OAuthProvider | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [staleSignIn, setStaleSignIn] = useState(false);
  const disconnect = useMutation((provider: OAuthProvider) => unwrap(client.api.auth.oauth[":provider"].$delete({ param: { provider } })), {
    success: (_result, provider) => ({
      title: "Sign-in method removed",
      description: `${oauthProviderLabels[provider]} no longer signs you in.`,
    }),
    // The API's message as the toast; a refusal for an old sign-in also offers 'Sign in again'.
    error: (error) => {
      const message = errorMessage(error, "Could not disconnect");
      if (message === signInMethodMessages.signInAgain) setStaleSignIn(true);
      setConfirming(false);
      errorToast(message);
    },
    onSuccess: () => setConfirming(false),
  });
  const connected = new Map(methods.providers.map((p) => [p.provider, p.linkedAt]));
  const shown = [...new Set([...methods.providers.map((p) => p.provider), ...methods.available.map((p) => p.id)])];

  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Sign-in methods</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3 text-sm">
          <li className="flex flex-wrap items-center gap-2">
            <KeyRound aria-hidden="true" className="h-4 w-4 text-stone-500" />
            <span className="font-medium">Password</span>
            {methods.password ? (
              <Badge variant="success">Set</Badge>
            ) : (
              <span className="text-stone-600">Not set: use “Forgot password” on the login page to choose one.</span>
            )}
          </li>
          {shown.map((provider) => {
            const label = oauthProviderLabels[provider];
            const linkedAt = connected.get(provider);
            return (
              <li key={provider} className="flex flex-wrap items-center gap-2" data-testid={`sign-in-${provider}`}>
                <Link2 aria-hidden="true" className="h-4 w-4 text-stone-500" />
                <span className="font-medium">{label}</span>
                {linkedAt ? (
                  <>
                    <Badge variant="success">Connected</Badge>
                    <span className="text-stone-600">since {connectedOn(linkedAt)}</span>
                    <Button
                      size="sm"
                      variant="outline"
                      aria-label={`Disconnect ${label}`}
                      onClick={() => {
                        setRemoving(provider);
                        setConfirming(true);
                      }}
                    >
                      Disconnect
                    </Button>
                  </>
                ) : methods.emailVerified ? (
                  <Button asChild size="sm" variant="outline">
                    <a href={`/api/auth/oauth/${provider}?intent=link`}>Connect {label}</a>
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
        {methods.emailVerified ? null : <p className="mt-3 text-sm text-stone-600">{signInMethodMessages.verifyFirst}.</p>}
        {methods.signedInRecently && !staleSignIn ? null : (
          <Form method="post" action="/auth/logout?redirectTo=%2Faccount" className="mt-3 flex flex-wrap items-center gap-2 text-sm">
            <span className="text-stone-600">Changing how you sign in needs a sign-in within the last 10 minutes.</span>
            <Button type="submit" size="sm" variant="outline">
              Sign in again
            </Button>
          </Form>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Disconnect ${removing ? oauthProviderLabels[removing] : ""}?`}
        description="You will no longer be able to sign in with it. You can connect it again later."
        confirmLabel="Disconnect"
        pendingLabel="Disconnecting..."
        pending={disconnect.pending}
        onConfirm={() => (removing ? void disconnect.run(removing) : undefined)}
      />
    </Card>
  );
}
