import { useId, useState } from "react";
import { client, errorMessage, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";

type NotifyEmail = "instant" | "daily" | "off";

const choices: { value: NotifyEmail; label: string }[] = [
  { value: "instant", label: "Each one as it happens" },
  { value: "daily", label: "One daily digest" },
  { value: "off", label: "Off" },
];

/** How mentions, replies and suggestions reach the writer by email (a timeline shared with them always mails). */
export function NotifyEmailSetting({ initial }: { initial: NotifyEmail }) {
  const id = useId();
  const [value, setValue] = useState(initial);
  async function change(next: NotifyEmail) {
    const before = value;
    setValue(next);
    try {
      await unwrap(client.api.account.$patch({ json: { notifyEmail: next } }));
      showToast({ title: "Saved", description: "Email notifications updated." });
    } catch (error) {
      setValue(before);
      errorToast(errorMessage(error, "Could not save the email setting"));
    }
  }
  return (
    <div className="mt-4 space-y-1.5 border-t border-stone-200 pt-4 text-sm">
      <label htmlFor={id} className="font-medium">
        Email notifications
      </label>
      <select
        id={id}
        className="h-10 w-full rounded-md border border-stone-300 bg-white px-3"
        value={value}
        onChange={(e) => void change(e.target.value as NotifyEmail)}
      >
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
      <p className="text-xs text-stone-600">Mentions and replies to your threads. Invitations to a timeline are always emailed.</p>
    </div>
  );
}
