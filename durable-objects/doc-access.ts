// Who a writer's socket in the shared doc belongs to, and whether D1 still lets them edit there.
import type { Connection } from "partyserver";
import type { Db } from "../db/client";
import { canEdit, loadTimelineAccess } from "../worker/services/access";
import { liveSessions } from "../worker/services/live-sessions";
import { CloseCodes, CloseReasons } from "./close-codes";
import type { AccessEnd } from "./protocol";

/** Kept in the connection's state (beside y-partyserver's awareness ids). */
export type DocConn = {
  userId: number;
  userName: string;
  sessionId: string;
  share?: string;
  readOnly?: boolean;
  /** Access ended: nothing this connection still sends is applied or saved (it is closing). */
  ended?: boolean;
};

export const SESSION_ID = /^[0-9a-f]{64}$/;

/** What D1 says of a writer's socket now: null while they may still edit here, or why it ends. */
export async function accessVerdict(db: Db, timelineId: number, s: DocConn): Promise<AccessEnd["reason"] | null> {
  if (!(await liveSessions(db, [s.sessionId])).has(s.sessionId)) return "signed-out";
  const found = await loadTimelineAccess(db, { id: s.userId }, timelineId, s.share);
  if (!found || found.access === "none") return "removed";
  return canEdit(found.access) ? null : "viewer";
}

/** Marks the socket ended (its later messages are dropped unread) and closes it, saying why. */
export function endConnection(c: Connection<DocConn>, reason: AccessEnd["reason"]) {
  c.setState((prev) => ({ ...prev!, ended: true }));
  if (reason === "signed-out") c.close(CloseCodes.unauthenticated, CloseReasons.signedOut);
  else c.close(CloseCodes.accessRemoved, reason === "viewer" ? CloseReasons.viewOnly : CloseReasons.accessRemoved);
}
