import { KeyRound, Link2 } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";

export type SignInMethods = {
  hasPassword: boolean;
  providers: { id: string; label: string; connected: boolean; configured: boolean }[];
};

/** The account page's list of ways to sign in: the password and each OAuth provider (connect when configured). */
export function SignInMethodsCard({ methods }: { methods: SignInMethods }) {
  const shown = methods.providers.filter((p) => p.connected || p.configured);
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
            {methods.hasPassword ? (
              <Badge variant="success">Set</Badge>
            ) : (
              <span className="text-stone-600">Not set: use “Forgot password” on the login page to choose one.</span>
            )}
          </li>
          {shown.map((provider) => (
            <li key={provider.id} className="flex flex-wrap items-center gap-2" data-testid={`sign-in-${provider.id}`}>
              <Link2 aria-hidden="true" className="h-4 w-4 text-stone-500" />
              <span className="font-medium">{provider.label}</span>
              {provider.connected ? (
                <Badge variant="success">Connected</Badge>
              ) : (
                <Button asChild size="sm" variant="outline">
                  <a href={`/api/auth/oauth/${provider.id}?intent=link`}>Connect {provider.label}</a>
                </Button>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
