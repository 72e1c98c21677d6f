import type { ReactNode } from "react";
import { Button } from "~/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "~/ui/card";

export function AuthCard({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <h1 className="text-2xl font-semibold">{title}</h1>
        {description ? <CardDescription>{description}</CardDescription> : null}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </p>
  );
}

/** `path` keeping the sign-in's return address (`redirectTo`) when there is one. */
export const withReturn = (path: string, redirectTo: string | null | undefined) =>
  redirectTo ? `${path}?redirectTo=${encodeURIComponent(redirectTo)}` : path;

/** 'Continue with GitHub' / 'Continue with Google': plain links (a full navigation to the provider and back). */
export function OAuthButtons({ providers, redirectTo }: { providers: { id: string; label: string }[]; redirectTo?: string | null }) {
  if (providers.length === 0) return null;
  return (
    <div className="mt-6 space-y-3">
      <div className="flex items-center gap-3 text-xs uppercase tracking-wide text-stone-600">
        <span className="h-px flex-1 bg-stone-200" />
        or
        <span className="h-px flex-1 bg-stone-200" />
      </div>
      {providers.map((provider) => (
        <Button key={provider.id} asChild variant="outline" className="w-full">
          <a href={withReturn(`/api/auth/oauth/${provider.id}`, redirectTo)}>Continue with {provider.label}</a>
        </Button>
      ))}
    </div>
  );
}
