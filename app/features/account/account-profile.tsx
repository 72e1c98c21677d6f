import { type FormEvent, useState } from "react";
import { Button } from "~/ui/button";
import { Field } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { client, unwrap } from "~/lib/client";

/** 'Change name' inside the Profile card: the server applies the product's name rules and says what is wrong. */
export function AccountProfileForm({ name }: { name: string | null }) {
  const [value, setValue] = useState(name ?? "");
  const save = useMutation((next: string) => unwrap(client.api.account.$patch({ json: { name: next } })), {
    success: { title: "Profile updated", description: "Your name was changed." },
    error: "Failed to update your name",
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void save.run(value);
  };
  return (
    <form onSubmit={submit} className="mt-4 flex flex-wrap items-end gap-2 border-t border-stone-200 pt-4">
      <div className="min-w-48 flex-1">
        <Field
          id="account-name"
          label="Name"
          autoComplete="name"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          maxLength={100}
        />
      </div>
      <Button type="submit" variant="outline" disabled={save.pending || value.trim() === (name ?? "")}>
        {save.pending ? "Saving..." : "Save name"}
      </Button>
    </form>
  );
}
