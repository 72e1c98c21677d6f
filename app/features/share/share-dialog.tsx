import { Copy, Link2, Link2Off, RefreshCw, Trash2 } from "lucide-react";
import { Tabs } from "radix-ui";
import { useCallback, useEffect, useState } from "react";
import { Badge } from "~/ui/badge";
import { Button } from "~/ui/button";
import { ConfirmDialog, Dialog } from "~/ui/dialog";
import { Input, Label } from "~/ui/input";
import { useOfflineLock } from "~/features/offline/offline-lock";
import { useMutation } from "~/lib/use-mutation";
import { client, errorMessage, unwrap } from "~/lib/client";
import { loadValidation } from "~/lib/lazy-validation";
import { errorToast, showToast } from "~/lib/toast";
import type { ShareEntry } from "../../../worker/services/sharing";
import { ViewerComments } from "./viewer-comments";

type Role = "viewer" | "collaborator";
const roleLabels: Record<Role, string> = { viewer: "Viewer (can only view)", collaborator: "Collaborator (can edit)" };
const tabClass =
  "flex-1 rounded-md px-3 py-1.5 text-sm font-medium text-stone-700 data-[state=active]:bg-white data-[state=active]:text-ink data-[state=active]:shadow-sm";
const selectClass = "h-10 w-full rounded-md border border-stone-300 bg-white px-3 text-sm";

export function ShareDialog({ open, onOpenChange, timelineId }: { open: boolean; onOpenChange: (o: boolean) => void; timelineId: number }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Share Timeline" description="Invite co-writers to this timeline.">
      <Tabs.Root defaultValue="link">
        <Tabs.List aria-label="Share options" className="flex gap-1 rounded-lg bg-stone-100 p-1">
          <Tabs.Trigger value="link" className={tabClass}>
            Share via Link
          </Tabs.Trigger>
          <Tabs.Trigger value="user" className={tabClass}>
            Share with User
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="link" className="pt-4">
          {open ? <ShareLinkTab timelineId={timelineId} /> : null}
        </Tabs.Content>
        <Tabs.Content value="user" className="pt-4">
          {open ? <ShareUserTab timelineId={timelineId} /> : null}
        </Tabs.Content>
      </Tabs.Root>
      {open ? <ViewerComments timelineId={timelineId} /> : null}
    </Dialog>
  );
}

type LinkState = { code: string | null; off: boolean };

function ShareLinkTab({ timelineId }: { timelineId: number }) {
  const param = { id: String(timelineId) };
  const [role, setRole] = useState<Role>("collaborator");
  // null while the current link is loading.
  const [link, setLink] = useState<LinkState | null>(null);
  const [confirmReset, setConfirmReset] = useState(false);
  // With no network every control here is disabled and says 'You're offline' (the link already made can be copied).
  const offline = useOfflineLock("block");

  const createLink = useMutation(
    (nextRole: Role, _announce: boolean) => unwrap(client.api.timelines[":id"].share.$post({ param, json: { role: nextRole } })),
    {
      success: (_, _role, announce) =>
        announce ? { title: "Share Link Created", description: "Anyone with the link can ask to join this timeline." } : undefined,
      error: "Failed to generate share link",
      revalidate: false,
      onSuccess: (res) => setLink({ code: res.shareCode, off: false }),
    },
  );
  const resetLink = useMutation(() => unwrap(client.api.timelines[":id"].share.reset.$post({ param })), {
    success: { title: "Share Link Reset", description: "The old link no longer opens this timeline." },
    error: "Failed to reset share link",
    revalidate: false,
    onSuccess: (res) => {
      setLink({ code: res.shareCode, off: false });
      setConfirmReset(false);
    },
  });
  const turnOff = useMutation(() => unwrap(client.api.timelines[":id"].share.$delete({ param })), {
    success: { title: "Share Link Turned Off", description: "The link no longer opens this timeline." },
    error: "Failed to turn off share link",
    revalidate: false,
    onSuccess: () => setLink({ code: null, off: true }),
  });
  const pending = createLink.pending || resetLink.pending || turnOff.pending;
  const generate = createLink.run;

  // The current link, if any. None is made here: a timeline without a link waits for 'Create link'.
  useEffect(() => {
    let live = true;
    unwrap(client.api.timelines[":id"].share.$get({ param: { id: String(timelineId) } })).then(
      (current) => {
        if (!live) return;
        setRole(current.role);
        setLink({ code: current.shareCode, off: current.off });
      },
      () => live && errorToast("Failed to generate share link"),
    );
    return () => {
      live = false;
    };
  }, [timelineId]);

  const code = link?.code ?? null;
  const url = code ? `${window.location.origin}/timeline/shared/${code}` : "";
  return (
    <div className="space-y-4">
      {offline.note}
      <div className="space-y-1.5">
        <Label htmlFor="share-link-role">Link access</Label>
        <select
          id="share-link-role"
          className={selectClass}
          value={role}
          disabled={pending || !link}
          onChange={(e) => {
            const next = e.target.value as Role;
            setRole(next);
            // Without a link, the level applies to the link created next.
            if (code) void generate(next, false);
          }}
          {...offline.lock}
        >
          <option value="collaborator">{roleLabels.collaborator}</option>
          <option value="viewer">{roleLabels.viewer}</option>
        </select>
      </div>
      {link && !code ? (
        <div className="space-y-3 rounded-md border border-dashed border-stone-300 p-4 text-sm">
          <p className="text-stone-700">
            {link.off
              ? "The share link is turned off. Nobody can open this timeline with a link."
              : "There is no share link yet. Anyone you give a link to can ask to join this timeline with the access chosen above."}
          </p>
          <Button type="button" disabled={pending} onClick={() => void generate(role, true)} {...offline.lock}>
            <Link2 aria-hidden="true" className="h-4 w-4" /> {createLink.pending ? "Creating..." : "Create link"}
          </Button>
        </div>
      ) : (
        <>
          <div className="space-y-1.5">
            <Label htmlFor="share-link">Share link</Label>
            <div className="flex gap-2">
              <Input id="share-link" readOnly value={code ? url : "Loading link..."} onFocus={(e) => e.target.select()} />
              <Button
                type="button"
                variant="outline"
                disabled={!code}
                onClick={async () => {
                  try {
                    await navigator.clipboard.writeText(url);
                    showToast({ title: "Link Copied", description: "The share link is on your clipboard." });
                  } catch {
                    errorToast("Could not copy the link. Select it and copy it yourself.");
                  }
                }}
              >
                <Copy aria-hidden="true" className="h-4 w-4" /> Copy
              </Button>
            </div>
          </div>
          <p className="text-sm text-stone-600">
            {role === "collaborator"
              ? "Anyone with this link can view and collaborate on this timeline."
              : "Anyone with this link can view this timeline."}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              disabled={!code || pending}
              onClick={() => setConfirmReset(true)}
              {...offline.lock}
            >
              <RefreshCw aria-hidden="true" className="h-4 w-4" /> Reset link
            </Button>
            <Button
              type="button"
              variant="outline"
              size="sm"
              className="text-red-700 hover:bg-red-50"
              disabled={!code || pending}
              onClick={() => void turnOff.run()}
              {...offline.lock}
            >
              <Link2Off aria-hidden="true" className="h-4 w-4" /> {turnOff.pending ? "Turning off..." : "Turn off link"}
            </Button>
          </div>
        </>
      )}
      <ConfirmDialog
        open={confirmReset && !offline.offline}
        onOpenChange={setConfirmReset}
        title="Reset the share link?"
        description="The current link stops working at once, and people who joined through it lose access. Writers you shared with by email keep theirs."
        confirmLabel="Reset link"
        pendingLabel="Resetting..."
        pending={resetLink.pending}
        onConfirm={() => void resetLink.run()}
      />
    </div>
  );
}

/** The server's answer for an address with no account. */
const NO_ACCOUNT = "No user found with that email address";

function ShareUserTab({ timelineId }: { timelineId: number }) {
  const [email, setEmail] = useState("");
  const [level, setLevel] = useState<Role>("viewer");
  const [shares, setShares] = useState<ShareEntry[]>([]);
  // The address that has no account yet: the dialog offers to invite it instead.
  const [unknown, setUnknown] = useState<{ userEmail: string; accessLevel: Role } | null>(null);
  const offline = useOfflineLock("block");

  const load = useCallback(async () => {
    try {
      setShares(await unwrap(client.api.timelines[":id"].shares.$get({ param: { id: String(timelineId) } })));
    } catch {
      errorToast("Failed to fetch timeline shares");
    }
  }, [timelineId]);

  const shareWithUser = useMutation(
    (fields: { userEmail: string; accessLevel: Role; invite?: boolean }) =>
      unwrap(client.api.timelines[":id"]["share-with-user"].$post({ param: { id: String(timelineId) }, json: fields })),
    {
      success: (share) =>
        "invited" in share
          ? {
              title: "Invitation sent",
              description:
                share.sharedWithUserId === null
                  ? `${share.email} can sign up and open this timeline.`
                  : `${share.email} can open this timeline once they verify their email.`,
            }
          : { title: "Timeline Shared", description: `Shared with ${share.sharedWithUserEmail}` },
      error: (error, fields) => {
        const message = errorMessage(error, "Failed to share timeline with user");
        if (message === NO_ACCOUNT && !fields.invite) return setUnknown({ userEmail: fields.userEmail, accessLevel: fields.accessLevel });
        return message;
      },
      revalidate: false,
      onSuccess: () => {
        setEmail("");
        setUnknown(null);
        void load();
      },
    },
  );
  const pending = shareWithUser.pending;

  const removeShare = useMutation(
    (share: ShareEntry) =>
      "pending" in share
        ? unwrap(
            client.api.timelines[":id"].invitations[":invitationId"].$delete({
              param: { id: String(timelineId), invitationId: String(share.id) },
            }),
          )
        : unwrap(
            client.api.timelines[":id"].shares[":userId"].$delete({
              param: { id: String(timelineId), userId: String(share.sharedWithUserId) },
            }),
          ),
    {
      success: (_, share) =>
        "pending" in share
          ? { title: "Invitation Cancelled", description: `${share.sharedWithUserEmail} can no longer open this timeline with it.` }
          : { title: "Share Removed", description: `${share.sharedWithUserEmail} no longer has access.` },
      error: (error, share) =>
        errorMessage(error, "pending" in share ? "Failed to cancel the invitation" : "Failed to remove timeline share"),
      revalidate: false,
      onSuccess: () => void load(),
    },
  );

  useEffect(() => {
    void load();
  }, [load]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const { ShareWithUserSchema, firstIssue } = await loadValidation();
    const parsed = ShareWithUserSchema.safeParse({ userEmail: email, accessLevel: level });
    if (!parsed.success) return errorToast(firstIssue(parsed.error));
    await shareWithUser.run(parsed.data);
  }

  const remove = (share: ShareEntry) => void removeShare.run(share);

  return (
    <div className="space-y-5">
      {offline.note}
      <form onSubmit={submit} noValidate className="space-y-4">
        <div className="space-y-1.5">
          <Label htmlFor="share-email">Email Address</Label>
          <Input
            id="share-email"
            type="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder="co-writer@example.com"
            {...offline.lock}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="share-level">Access Level</Label>
          <select
            id="share-level"
            className={selectClass}
            value={level}
            onChange={(e) => setLevel(e.target.value as Role)}
            {...offline.lock}
          >
            <option value="viewer">{roleLabels.viewer}</option>
            <option value="collaborator">{roleLabels.collaborator}</option>
          </select>
        </div>
        <Button type="submit" disabled={pending} className="w-full" {...offline.lock}>
          {pending ? "Sharing..." : "Share Timeline"}
        </Button>
      </form>
      {unknown ? (
        <div role="alert" className="space-y-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm">
          <p>
            {NO_ACCOUNT}: <span className="font-medium">{unknown.userEmail}</span>.
          </p>
          <Button size="sm" disabled={pending} onClick={() => void shareWithUser.run({ ...unknown, invite: true })} {...offline.lock}>
            Send an invitation to sign up
          </Button>
        </div>
      ) : null}
      {shares.length > 0 ? (
        <div>
          <p className="mb-2 text-sm font-semibold">Shared with:</p>
          <ul className="max-h-48 space-y-2 overflow-y-auto pr-1">
            {shares.map((s) => (
              <li
                key={"pending" in s ? `invitation-${s.id}` : s.id}
                className="flex items-center gap-2 rounded-md border border-stone-200 p-2 text-sm"
              >
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium">{s.sharedWithUserName}</p>
                  <p className="truncate text-stone-600">{s.sharedWithUserEmail}</p>
                  {"pending" in s ? (
                    <p className="text-xs text-amber-800">{s.sharedWithUserId === null ? "Invited: no account yet" : "Not verified"}</p>
                  ) : null}
                </div>
                <Badge variant={s.accessLevel === "collaborator" ? "default" : "secondary"}>{s.accessLevel}</Badge>
                <Button
                  size="icon"
                  variant="ghost"
                  className="text-red-700 hover:bg-red-50"
                  onClick={() => remove(s)}
                  aria-label={"pending" in s ? `Cancel the invitation to ${s.sharedWithUserEmail}` : `Remove ${s.sharedWithUserEmail}`}
                  {...offline.lock}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </Button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
