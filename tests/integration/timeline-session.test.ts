import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { connectionHeaders, roleOf } from "../../app/features/timeline/timeline-session";
import { clientWith } from "../../app/lib/client";
import { ROOM_CONNECTION_HEADER } from "../../durable-objects/close-codes";
import worker from "../../worker/index";
import { ORIGIN, createTimeline, registerUser } from "./helpers";

// The timeline session's client: the room connection's header is set once, read when each call is sent.

describe("timeline session", () => {
  it("names the room connection only once there is one", () => {
    expect(connectionHeaders(null)).toEqual({});
    expect(connectionHeaders("abc-1")).toEqual({ [ROOM_CONNECTION_HEADER]: "abc-1" });
  });

  it("reads the viewer's role from the access level; ended access reads as a viewer's", () => {
    expect(roleOf("owner", true, false)).toBe("owner");
    expect(roleOf("owner", false, true)).toBe("viewer");
    expect(roleOf("collaborator", true, false)).toBe("editor");
    expect(roleOf("viewer", false, false)).toBe("viewer");
  });

  it("sends the header as it is when each call is sent (a reconnection's new id reaches the next call)", async () => {
    const sent: (string | null)[] = [];
    let connection: string | null = null;
    const spy = async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push(new Request(new URL(String(input), ORIGIN), init).headers.get(ROOM_CONNECTION_HEADER));
      return Response.json({ user: null });
    };
    const client = clientWith(() => connectionHeaders(connection), spy);
    await client.api.auth.me.$get();
    connection = "first";
    await client.api.auth.me.$get();
    connection = "second";
    await client.api.auth.me.$get();
    expect(sent).toEqual([null, "first", "second"]);
  });

  it("writes through the real Worker with the connection named", async () => {
    const owner = await registerUser();
    const tl = await createTimeline(owner.token);
    const seen: (string | null)[] = [];
    const client = clientWith(
      () => connectionHeaders("page-1"),
      async (input, init) => {
        const request = new Request(new URL(String(input), ORIGIN), init);
        request.headers.set("Authorization", `Bearer ${owner.token}`);
        seen.push(request.headers.get(ROOM_CONNECTION_HEADER));
        const ctx = createExecutionContext();
        const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
        await waitOnExecutionContext(ctx);
        return res;
      },
    );
    const res = await client.api.timelines[":id"].events.$post({
      param: { id: String(tl.id) },
      query: {},
      json: { title: "Arrival", content: "She lands.", timelineId: tl.id, attachments: [] },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).title).toBe("Arrival");
    expect(seen).toEqual(["page-1"]);
  });
});
