import { BookUser } from "lucide-react";
import { useId, useState } from "react";
import { Link } from "react-router";
import { Button } from "~/ui/button";
import { Dialog } from "~/ui/dialog";
import { Input, Label } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { client, unwrap } from "~/lib/client";
import { entityLimits, characterNameFrom } from "../../../db/domain/rules";

export type EditableTimeline = { id: number; title: string };

/**
 * Writer's Unblock → the codex: the generated profile becomes a character on a timeline the writer can edit
 * (the server checks edit access again; the room tells everyone on that timeline).
 */
export function SaveToCodex({ profile, timelines }: { profile: string; timelines: EditableTimeline[] }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [timelineId, setTimelineId] = useState(timelines[0]?.id ?? 0);
  const [name, setName] = useState("");
  const [saved, setSaved] = useState<{ timelineId: number; name: string } | null>(null);

  // The name is proposed from the profile (which may still be streaming in) until the writer edits it:
  // derived while rendering, so no late update can overwrite what they typed.
  const [nameEdited, setNameEdited] = useState(false);
  const shownName = nameEdited ? name : characterNameFrom(profile);
  const openDialog = () => {
    setNameEdited(false);
    setSaved(null);
    setOpen(true);
  };

  const save = useMutation(
    (fields: { timelineId: number; name: string }) =>
      unwrap(
        client.api.timelines[":id"].entities.$post({
          param: { id: String(fields.timelineId) },
          query: {},
          json: {
            kind: "character",
            name: fields.name,
            description: profile.slice(0, entityLimits.description),
          },
        }),
      ),
    {
      success: (entity) => ({ title: "Success", description: `${entity.name} saved to the codex` }),
      error: "Failed to save to codex",
      revalidate: false,
      onSuccess: (entity) => setSaved({ timelineId: entity.timelineId, name: entity.name }),
    },
  );

  function submit(e: React.FormEvent) {
    e.preventDefault();
    void save.run({ timelineId, name: shownName });
  }

  return (
    <>
      <Button variant="ghost" size="sm" onClick={openDialog} disabled={!profile}>
        <BookUser aria-hidden="true" className="h-4 w-4" /> Save to codex
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title="Save to codex" description="Add this character to a timeline's codex.">
        {timelines.length === 0 ? (
          <div className="space-y-4 text-sm">
            <p>You have no timeline you can edit yet. Create one first, then save characters to its codex.</p>
            <Button asChild>
              <Link to="/timeline">Go to My Timelines</Link>
            </Button>
          </div>
        ) : saved ? (
          <div className="space-y-4 text-sm" role="status">
            <p>
              <strong>{saved.name}</strong> is now in the codex of{" "}
              <strong>{timelines.find((t) => t.id === saved.timelineId)?.title}</strong>.
            </p>
            <div className="flex justify-end gap-2">
              <Button variant="outline" onClick={() => setOpen(false)}>
                Close
              </Button>
              <Button asChild>
                <Link to={`/timeline/${saved.timelineId}`}>Open timeline</Link>
              </Button>
            </div>
          </div>
        ) : (
          <form onSubmit={submit} className="space-y-4" noValidate>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-timeline`}>Timeline</Label>
              <select
                id={`${id}-timeline`}
                value={timelineId}
                onChange={(e) => setTimelineId(Number(e.target.value))}
                className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
              >
                {timelines.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.title}
                  </option>
                ))}
              </select>
            </div>
            <div className="space-y-1.5">
              <Label htmlFor={`${id}-name`}>Name</Label>
              <Input
                id={`${id}-name`}
                value={shownName}
                onChange={(e) => {
                  setNameEdited(true);
                  setName(e.target.value);
                }}
                maxLength={entityLimits.name}
              />
            </div>
            <p className="text-sm text-stone-600">The whole profile becomes the character's description.</p>
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={() => setOpen(false)} disabled={save.pending}>
                Cancel
              </Button>
              <Button type="submit" disabled={save.pending}>
                {save.pending ? "Saving..." : "Save character"}
              </Button>
            </div>
          </form>
        )}
      </Dialog>
    </>
  );
}
