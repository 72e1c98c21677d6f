import { useEffect, useState } from "react";
import { useTimelineSession } from "~/features/timeline/timeline-session";
import { client, errorMessage, shareParam, unwrap } from "~/lib/client";
import { errorToast, showToast } from "~/lib/toast";
import { Button } from "~/ui/button";
import { OnlineOnlyButton, useOfflineLock } from "~/features/offline/offline-lock";
import { Dialog } from "~/ui/dialog";
import { Input, Label } from "~/ui/input";
import { type StructureToolsProps, type StructureView, type TemplateView, loadTemplates } from "./structure-api";

// The Structure and Save as template dialogs: loaded when the pointer nears their buttons or one opens.

export function StructureDialog(
  props: StructureToolsProps & {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    structure: StructureView | null;
    onStructure: (s: StructureView) => void;
  },
) {
  const { open, structure, canEdit } = props;
  const [templates, setTemplates] = useState<TemplateView[] | null>(null);
  const [pending, setPending] = useState(false);
  // Choosing a beat sheet is saved on the server at once (not queued): offline, the choice says 'You're offline'.
  const { lock, note } = useOfflineLock();
  // The session's client names this page's room connection.
  const { client: roomClient } = useTimelineSession();
  useEffect(() => {
    if (open) loadTemplates().then(setTemplates, (e) => errorToast(errorMessage(e, "Failed to load the structures")));
  }, [open]);
  const current = structure?.templateId ?? "";
  const chosen = templates?.find((t) => t.id === current);
  const choose = async (templateId: string) => {
    setPending(true);
    try {
      const param = { id: String(props.timelineId) };
      const json = { templateId: templateId || null };
      const next = await unwrap(roomClient.api.timelines[":id"].structure.$put({ param, query: shareParam(props.shareCode), json }));
      props.onStructure(next as StructureView);
    } catch (error) {
      errorToast(errorMessage(error, "Failed to set the structure"));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={props.onOpenChange} title="Structure">
      <div className="space-y-4">
        <div className="space-y-1.5">
          <Label htmlFor="structure-template">Beat sheet</Label>
          <select
            id="structure-template"
            value={current}
            disabled={!canEdit || pending || !templates}
            onChange={(e) => void choose(e.target.value)}
            className="h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm"
            {...lock}
          >
            <option value="">None</option>
            {templates?.map((t) => (
              <option key={t.id} value={t.id}>
                {t.builtIn ? t.name : `${t.name} (mine)`}
              </option>
            ))}
          </select>
          <p className="text-sm text-stone-600">
            {chosen ? chosen.description : "Choose a beat sheet to see where each beat should fall in the story."}
            {canEdit ? null : " Only editors can change it."}
          </p>
          {note}
        </div>
        {structure && structure.beats.length > 0 ? (
          <p className="text-sm text-stone-600">
            Placed by {structure.basis === "words" ? "word count" : "scene count"}: each beat is marked before the scene where it falls.
          </p>
        ) : null}
      </div>
    </Dialog>
  );
}

export function SaveTemplateDialog(props: { timelineId: number; title: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [name, setName] = useState("");
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (props.open) setName(props.title);
  }, [props.open, props.title]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return errorToast("Template name is required");
    setPending(true);
    try {
      await unwrap(client.api.templates.$post({ json: { timelineId: props.timelineId, name } }));
      showToast({ title: "Template saved", description: `'${name.trim()}' is in Start from a structure.` });
      props.onOpenChange(false);
    } catch (error) {
      errorToast(errorMessage(error, "Failed to save the template"));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange} title="Save as template">
      <form onSubmit={submit} noValidate className="space-y-4">
        <p className="text-sm text-stone-600">Keeps this timeline's chapters and scene titles to start another book from.</p>
        <div className="space-y-1.5">
          <Label htmlFor="template-name">Template name</Label>
          <Input id="template-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => props.onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <OnlineOnlyButton type="submit" disabled={pending}>
            {pending ? "Saving..." : "Save template"}
          </OnlineOnlyButton>
        </div>
      </form>
    </Dialog>
  );
}
