// The typed API client's stand-in for the scene writes the outbox sends (the client-side change tests): what is
// sent is recorded, and the answers are the API's.
import type { EventView } from "../../worker/services/events";

/** How a fake answers a request: `status` with `body` as JSON. */
export type Answer = (status: number, body: unknown) => Promise<Response>;

/** The answer as it comes, at once. */
export const plainAnswer: Answer = (status, body) => Promise.resolve(new Response(JSON.stringify(body), { status }));

/**
 * `api.events[":id"]`: PATCH and DELETE of a scene held in `scenes`, each recorded in `sent` ("patch 7 {…}",
 * "delete 7"); a scene that is not there answers 404 'Event not found', as the Worker does.
 */
export function fakeSceneWrites(scenes: Map<number, EventView>, sent: string[], answer: Answer = plainAnswer) {
  return {
    ":id": {
      $patch: ({ param, json }: { param: { id: string }; json: Record<string, unknown> }) => {
        sent.push(`patch ${param.id} ${JSON.stringify(json)}`);
        const held = scenes.get(Number(param.id));
        if (!held) return answer(404, { error: "Event not found" });
        Object.assign(held, json);
        return answer(200, held);
      },
      $delete: ({ param }: { param: { id: string } }) => {
        sent.push(`delete ${param.id}`);
        return scenes.delete(Number(param.id)) ? answer(200, { success: true }) : answer(404, { error: "Event not found" });
      },
    },
  };
}
