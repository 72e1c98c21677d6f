import { Link2 } from "lucide-react";
import { Link, useNavigate } from "react-router";
import { Page } from "~/ui/page";
import { Button } from "~/ui/button";
import { Card } from "~/ui/card";
import { useMutation } from "~/lib/use-mutation";
import { client, unwrap } from "~/lib/client";
import { bookPath } from "../../../db/domain/book-path";
import type { ShareInvite } from "../../../worker/services/sharing";

const levelLabels = { viewer: "Viewer (can only view)", collaborator: "Collaborator (can edit)" } as const;

/**
 * A share link opened by a writer who has not joined: what the link is for, and nothing added to their
 * timelines until they press 'Join timeline'.
 */
export function JoinSharedTimeline({ invite, shareCode }: { invite: ShareInvite; shareCode: string }) {
  const navigate = useNavigate();
  const join = useMutation(() => unwrap(client.api.timelines.shared[":shareCode"].join.$post({ param: { shareCode } })), {
    success: (res) => ({ title: "Joined timeline", description: `"${res.timeline.title}" is now in your timelines.` }),
    error: "Failed to join timeline",
    revalidate: false,
    onSuccess: (res) => navigate(bookPath(res.timeline.id, res.timeline.accessLevel)),
  });
  return (
    <Page className="!pt-16">
      <Card className="mx-auto max-w-lg p-6">
        <p className="flex items-center gap-2 text-sm font-medium text-brand-700">
          <Link2 aria-hidden="true" className="h-4 w-4" /> Shared timeline
        </p>
        <h1 dir="auto" className="mt-2 font-serif text-2xl font-bold break-words">
          {invite.timeline.title}
        </h1>
        <dl className="mt-4 space-y-1 text-sm">
          <div className="flex gap-2">
            <dt className="text-stone-600">Owner:</dt>
            <dd className="font-medium">{invite.owner.name}</dd>
          </div>
          <div className="flex gap-2">
            <dt className="text-stone-600">Your access:</dt>
            <dd className="font-medium">{levelLabels[invite.accessLevel]}</dd>
          </div>
        </dl>
        <p className="mt-4 text-sm text-stone-600">Joining adds this timeline to your timelines, under 'Shared with you'.</p>
        {/* A plain form: pressed before this page's code has loaded, it still joins (the route's action). */}
        <form
          method="post"
          className="mt-6 flex flex-wrap gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void join.run();
          }}
        >
          <Button type="submit" disabled={join.pending}>
            {join.pending ? "Joining..." : "Join timeline"}
          </Button>
          <Button asChild variant="outline">
            <Link to="/timeline">Cancel</Link>
          </Button>
        </form>
      </Card>
    </Page>
  );
}
