/**
 * Where a writer opening a book lands: a viewer (shared to read, not to edit) in the Manuscript, which reads like
 * a book, with the timeline one click away; the owner and editors on the timeline (DESIGN §12 'Readers').
 */
export function bookPath(timelineId: number, accessLevel: "owner" | "collaborator" | "viewer"): string {
  return accessLevel === "viewer" ? `/timeline/${timelineId}/manuscript` : `/timeline/${timelineId}`;
}
