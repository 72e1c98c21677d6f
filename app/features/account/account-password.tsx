import { type FormEvent, useState } from "react";
import { limits, messages } from "../../../db/domain/rules";
import { Button } from "~/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/ui/card";
import { Field } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { client, errorMessage, unwrap } from "~/lib/client";

type Input = { currentPassword?: string; newPassword: string };

/** Change the password (or set a first one after signing up with a provider); other devices are signed out. */
export function AccountPasswordCard({ hasPassword }: { hasPassword: boolean }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const [error, setError] = useState<string | null>(null);
  const change = useMutation((input: Input) => unwrap(client.api.account.password.$post({ json: input })), {
    success: {
      title: hasPassword ? "Password changed" : "Password set",
      description: "Your other devices were signed out.",
    },
    error: (e) => setError(errorMessage(e, "Failed to change password")),
    onSuccess: () => {
      setCurrent("");
      setNext("");
      setConfirm("");
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (next.length < limits.passwordMin) return setError(messages.password);
    if (next !== confirm) return setError(messages.passwordsMatch);
    void change.run(hasPassword ? { currentPassword: current, newPassword: next } : { newPassword: next });
  };
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Password</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid max-w-md gap-3" noValidate>
          {hasPassword ? null : (
            <p className="text-sm text-stone-600">You sign in with a provider. Add a password to sign in with your email too.</p>
          )}
          {hasPassword ? (
            <Field
              id="current-password"
              type="password"
              label="Current password"
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.target.value)}
            />
          ) : null}
          <Field
            id="new-password"
            type="password"
            label="New password"
            autoComplete="new-password"
            value={next}
            onChange={(e) => setNext(e.target.value)}
          />
          <Field
            id="confirm-new-password"
            type="password"
            label="Confirm new password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={change.pending}>
              {change.pending ? "Saving..." : hasPassword ? "Change password" : "Set password"}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
