import { type ApiClient, shareParam, unwrap } from "~/lib/client";
import type { EntityKind } from "../../../db/domain/rules";

export type CodexApi = {
  timelineId: number;
  shareCode?: string | null;
  /** The timeline session's client (the room connection already set). */
  client: ApiClient;
};

/** Creating a codex entry (the panel's dialog and the event card's picker share it). */
export function createEntityRequest(
  { timelineId, shareCode, client }: CodexApi,
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
    client.api.timelines[":id"].entities.$post({ param: { id: String(timelineId) }, query: shareParam(shareCode), json: fields }),
  );
}
