/**
 * Timelines shared with the writer's own address that open once it is verified: without this a writer who
 * signed up from an invitation sees only 'No timelines yet' until they open the verification mail.
 */
export function WaitingInvitations({ invitations }: { invitations: { timelineId: number; title: string }[] }) {
  if (invitations.length === 0) return null;
  return (
    <ul aria-label="Invitations waiting for your email" className="mb-4 space-y-2">
      {invitations.map((i) => (
        <li key={i.timelineId} className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Verify your email to open {i.title}
        </li>
      ))}
    </ul>
  );
}
