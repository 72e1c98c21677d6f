import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "~/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/ui/card";
import { Dialog } from "~/ui/dialog";
import { Field } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { client, errorMessage, unwrap } from "~/lib/client";

/** Deleting the account: the writer types their email (or DELETE) and, when they have one, their password. */
export function AccountDeleteCard({ email, hasPassword }: { email: string; hasPassword: boolean }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  const confirmed = typed.trim().toLowerCase() === email.toLowerCase() || typed.trim() === "DELETE";
  const remove = useMutation((body: { password?: string }) => unwrap(client.api.account.$delete({ json: body })), {
    success: { title: "Account deleted", description: "Your account and everything you owned were deleted." },
    error: (e) => setError(errorMessage(e, "Failed to delete your account")),
    revalidate: false,
    // The session cookie is gone with the account: the login page's loaders see a signed-out writer.
    onSuccess: () => void navigate("/auth/login", { replace: true }),
  });
  const openChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setTyped("");
      setPassword("");
      setError(null);
    }
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    setError(null);
    void remove.run(hasPassword && password ? { password } : {});
  };
  return (
    <Card className="mt-6 border-red-200">
      <CardHeader>
        <CardTitle>Delete account</CardTitle>
      </CardHeader>
      <CardContent className="space-y-3 text-sm">
        <p className="text-stone-600">
          Deletes your account, every timeline you own with its events, history, codex, mind map and attachments, and cancels your
          subscription. Timelines of other writers keep your past edits, shown as by “Deleted writer”. This cannot be undone: download your
          data first.
        </p>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          Delete account
        </Button>
      </CardContent>
      <Dialog
        open={open}
        onOpenChange={openChange}
        title="Delete your account?"
        description="This deletes everything you own and cannot be undone."
      >
        <form onSubmit={submit} className="grid gap-3" noValidate>
          <Field
            id="delete-confirm"
            label={`Type your email (${email}) or DELETE to confirm`}
            autoComplete="off"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
          />
          {hasPassword ? (
            <Field
              id="delete-password"
              type="password"
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          ) : null}
          {error ? (
            <p role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => openChange(false)} disabled={remove.pending}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={!confirmed || remove.pending}>
              {remove.pending ? "Deleting..." : "Delete my account"}
            </Button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}
