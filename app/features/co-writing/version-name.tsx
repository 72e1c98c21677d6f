import { useState } from "react";
import { Button } from "~/ui/button";
import { Input } from "~/ui/input";
import { client, errorMessage, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";
import { VERSION_NAME_MAX } from "../../../db/domain/rules";
import type { VersionSummary } from "../../../worker/services/versions";

const words = (n: number) => `${Math.abs(n).toLocaleString()} ${Math.abs(n) === 1 ? "word" : "words"}`;

const shortTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/** What a version changed: 'Restored from “First draft” · Title changed · +20 words'. */
export function changeSummary(v: VersionSummary, versions: VersionSummary[]) {
  const parts: string[] = [];
  if (v.restoredFrom !== null) {
    const source = versions.find((o) => o.id === v.restoredFrom);
    parts.push(`Restored from ${source ? (source.name ? `“${source.name}”` : shortTime(source.createdAt)) : "an earlier version"}`);
  }
  if (v.titleChanged) parts.push("Title changed");
  if (v.wordDelta === null) parts.push(words(v.wordCount));
  else if (v.wordDelta > 0) parts.push(`+${words(v.wordDelta)}`);
  else if (v.wordDelta < 0) parts.push(`−${words(v.wordDelta)}`);
  return parts.length > 0 ? parts.join(" · ") : "Same words";
}

type Props = {
  versionId: number;
  name: string | null;
  query: { share?: string };
  onNamed: (id: number, name: string | null) => void;
};

/** 'Name this version' (or 'Rename'): a short inline field; an empty name clears it. */
export function VersionName({ versionId, name, query, onNamed }: Props) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState(name ?? "");
  const [saving, setSaving] = useState(false);

  async function save() {
    setSaving(true);
    try {
      const saved = await unwrap(
        client.api["event-versions"][":id"].$patch({ param: { id: String(versionId) }, query, json: { name: value } }),
      );
      onNamed(saved.id, saved.name);
      setEditing(false);
    } catch (error) {
      errorToast(errorMessage(error, "Failed to name this version"));
    } finally {
      setSaving(false);
    }
  }

  if (!editing) {
    return (
      <Button
        variant="outline"
        size="sm"
        className="mt-2"
        onClick={() => {
          setValue(name ?? "");
          setEditing(true);
        }}
      >
        {name ? "Rename this version" : "Name this version"}
      </Button>
    );
  }
  return (
    <form
      className="mt-2 flex flex-wrap items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <Input
        aria-label="Version name"
        className="h-8 max-w-64"
        value={value}
        maxLength={VERSION_NAME_MAX}
        placeholder="e.g. Sent to my editor"
        autoFocus
        onChange={(e) => setValue(e.target.value)}
      />
      <Button type="submit" size="sm" disabled={saving}>
        {saving ? "Saving..." : "Save name"}
      </Button>
      <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(false)}>
        Cancel
      </Button>
    </form>
  );
}
