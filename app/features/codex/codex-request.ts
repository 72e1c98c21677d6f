import { client, shareParam, unwrap } from "~/lib/client";
import type { EntityKind } from "../../../db/domain/rules";

export type CodexApi = {
  timelineId: number;
  shareCode?: string | null;
  roomHeaders: Record<string, string>;
};

/** Creating a codex entry (the panel's dialog and the event card's picker share it). */
export function createEntityRequest(
  { timelineId, shareCode, roomHeaders }: CodexApi,
  fields: {
    kind: EntityKind;
    name: string;
    aliases?: string[];
    description?: string;
    color?: string;
    born?: string | null;
    died?: string | null;
  },
) {
  return unwrap(
    client.api.timelines[":id"].entities.$post(
      { param: { id: String(timelineId) }, query: shareParam(shareCode), json: fields },
      { headers: roomHeaders },
    ),
  );
}
