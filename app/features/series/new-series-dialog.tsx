import { useState } from "react";
import { useNavigate } from "react-router";
import { OnlineOnlyButton } from "~/features/offline/offline-lock";
import { Dialog } from "~/ui/dialog";
import { Input, Label } from "~/ui/input";
import { useMutation } from "~/lib/use-mutation";
import { client, unwrap } from "~/lib/client";
import { errorToast } from "~/lib/toast";

type Choice = { id: number; title: string };

/** 'New Series': a title and the writer's own timelines, in the order they are ticked (book 1 first). */
export function NewSeriesDialog({
  open,
  onOpenChange,
  timelines,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  timelines: Choice[];
}) {
  const navigate = useNavigate();
  const [title, setTitle] = useState("");
  const [chosen, setChosen] = useState<number[]>([]);
  const create = useMutation((json: { title: string; timelineIds: number[] }) => unwrap(client.api.series.$post({ json })), {
    success: { title: "Success", description: "Series created" },
    error: "Failed to create the series",
    revalidate: false,
    onSuccess: (series) => {
      setTitle("");
      setChosen([]);
      onOpenChange(false);
      navigate(`/series/${series.id}`);
    },
  });

  const toggle = (id: number, on: boolean) => setChosen((c) => (on ? [...c.filter((x) => x !== id), id] : c.filter((x) => x !== id)));

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!title.trim()) return errorToast("Please enter a series title");
    if (chosen.length === 0) return errorToast("Choose at least one of your timelines");
    void create.run({ title: title.trim(), timelineIds: chosen });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="New Series">
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="space-y-1.5">
          <Label htmlFor="series-title">Title</Label>
          <Input id="series-title" value={title} onChange={(e) => setTitle(e.target.value)} required maxLength={200} />
        </div>
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-medium">Books (tick them in order: the first is book 1)</legend>
          {timelines.map((t) => {
            const at = chosen.indexOf(t.id);
            return (
              <label key={t.id} className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={at >= 0} onChange={(e) => toggle(t.id, e.target.checked)} />
                <span>{t.title}</span>
                {at >= 0 ? <span className="text-stone-700">· Book {at + 1}</span> : null}
              </label>
            );
          })}
        </fieldset>
        <div className="flex justify-end gap-2">
          <OnlineOnlyButton type="submit" disabled={create.pending}>
            {create.pending ? "Creating..." : "Create Series"}
          </OnlineOnlyButton>
        </div>
      </form>
    </Dialog>
  );
}
