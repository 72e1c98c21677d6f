// Who a writer's socket in the shared doc belongs to, and whether D1 still lets them edit there.
import type { Connection } from "partyserver";
import type { Db } from "../db/client";
import { canEdit, loadTimelineAccess } from "../worker/services/access";
import { liveSessions } from "../worker/services/live-sessions";
import { CloseCodes, CloseReasons } from "./close-codes";
import type { AccessEnd } from "./protocol";
import { IdentityHeaders } from "./connection-state";

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

const SESSION_ID = /^[0-9a-f]{64}$/;

/** The writer the Worker admitted, from its identity headers: null when one is missing or malformed. */
export function admittedWriter(h: Headers): { userId: number; sessionId: string } | null {
  const userId = Number(h.get(IdentityHeaders.userId));
  const sessionId = h.get(IdentityHeaders.sessionId) ?? "";
  const access = h.get(IdentityHeaders.accessMode);
  if (!Number.isInteger(userId) || userId <= 0 || !SESSION_ID.test(sessionId) || (access !== "owner" && access !== "collaborator"))
    return null;
  return { userId, sessionId };
}

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

/**
 * A writer's access ended or shrank: the sockets it names are ended at once. After a change of the share link,
 * writers admitted with a code are checked against D1 again (`verdict`).
 */
export async function endAccessOf(
  connections: Iterable<Connection<DocConn>>,
  end: AccessEnd,
  verdict: (s: DocConn) => Promise<AccessEnd["reason"] | null>,
) {
  const users = new Set(end.userIds ?? []);
  const sessionIds = new Set(end.sessionIds ?? []);
  const recheck: Connection<DocConn>[] = [];
  for (const c of connections) {
    const s = c.state;
    if (!s?.userId || s.ended) continue;
    if (users.has(s.userId) || sessionIds.has(s.sessionId)) endConnection(c, end.reason);
    else if (end.recheckShared && s.share) recheck.push(c);
  }
  for (const c of recheck) {
    const ended = await verdict(c.state!);
    if (ended && !c.state?.ended) endConnection(c, ended);
  }
}
