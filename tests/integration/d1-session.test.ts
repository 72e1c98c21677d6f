import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";
import { BOOKMARK_COOKIE } from "../../worker/lib/d1-session";
import { ORIGIN, call, createTimeline, registerUser } from "./helpers";

const SECURE_NAME = `__Host-${BOOKMARK_COOKIE}`;
const cookieFrom = (setCookie: string | null, name = BOOKMARK_COOKIE) =>
  setCookie?.match(new RegExp(`(?:^|[ ,])${name}=([^;,]+)`))?.[1] ?? null;

/**
 * Calls the Worker with the real D1 binding, noting where each request's D1 session starts (the
 * argument of `withSession`): the cookie's bookmark, or "first-primary".
 */
async function callSeeingStart(method: string, url: string, token: string, cookie: string | null, body?: unknown) {
  const starts: (string | undefined)[] = [];
  const db = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "withSession") {
        return (start?: string) => {
          starts.push(start);
          return target.withSession(start);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const headers = new Headers({ Authorization: `Bearer ${token}` });
  if (cookie) headers.set("Cookie", cookie);
  if (body !== undefined) headers.set("Content-Type", "application/json");
  const ctx = createExecutionContext();
  const request = new Request(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, DB: db }, ctx);
  await waitOnExecutionContext(ctx);
  const text = await res.text();
  return { status: res.status, text, setCookie: res.headers.get("Set-Cookie"), start: starts[0] };
}

describe("D1 sessions (read replication)", () => {
  it("a write hands the browser its signed bookmark; the next read starts from it and sees the write", async () => {
    const writer = await registerUser();
    const res = await callSeeingStart("POST", `${ORIGIN}/api/timelines`, writer.token, null, { title: "Bookmarked", description: "" });
    expect(res.status, res.text).toBe(201);
    expect(res.start).toBe("first-primary");
    const signed = decodeURIComponent(cookieFrom(res.setCookie) ?? "");
    expect(signed).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+\.[A-Za-z0-9_-]{43}$/i);
    expect(res.setCookie).toContain("HttpOnly");
    const bookmark = signed.slice(0, signed.lastIndexOf("."));

    const read = await callSeeingStart(
      "GET",
      `${ORIGIN}/api/timelines/${JSON.parse(res.text).id}`,
      writer.token,
      `${BOOKMARK_COOKIE}=${encodeURIComponent(signed)}`,
    );
    expect(read.status, read.text).toBe(200);
    expect(JSON.parse(read.text).title).toBe("Bookmarked");
    expect(read.start).toBe(bookmark);
    // Reads leave the cookie alone.
    expect(cookieFrom(read.setCookie)).toBeNull();
  });

  it("a forged bookmark (well-formed but unsigned, or signed by someone else) is ignored: the request starts at the primary", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token, { title: "Forged" });
    const write = await callSeeingStart("PATCH", `${ORIGIN}/api/timelines/${timeline.id}`, writer.token, null, { title: "Forged" });
    const signed = decodeURIComponent(cookieFrom(write.setCookie) ?? "");
    const bookmark = signed.slice(0, signed.lastIndexOf("."));
    const otherBookmark = "00000000-00000001-00000000-0123456789abcdef0123456789abcdef";
    for (const forged of [
      bookmark,
      otherBookmark,
      `${otherBookmark}${signed.slice(signed.lastIndexOf("."))}`,
      `${bookmark}.AAAA`,
      `${bookmark}.`,
    ]) {
      const read = await callSeeingStart(
        "GET",
        `${ORIGIN}/api/timelines/${timeline.id}`,
        writer.token,
        `${BOOKMARK_COOKIE}=${encodeURIComponent(forged)}`,
      );
      expect(read.status, read.text).toBe(200);
      expect(read.start, forged).toBe("first-primary");
    }
  });

  it("over https the cookie is __Host- (Secure, Path=/); the plain name is not read there", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token, { title: "Secure" });
    const https = ORIGIN.replace("http:", "https:");
    const write = await callSeeingStart("PATCH", `${https}/api/timelines/${timeline.id}`, writer.token, null, { title: "Secure" });
    expect(write.status, write.text).toBe(200);
    expect(write.setCookie).toMatch(new RegExp(`^${SECURE_NAME}=[^;]+; Path=/; SameSite=Lax; HttpOnly; Secure`));
    const signed = decodeURIComponent(cookieFrom(write.setCookie, SECURE_NAME) ?? "");
    const bookmark = signed.slice(0, signed.lastIndexOf("."));
    const read = await callSeeingStart(
      "GET",
      `${https}/api/timelines/${timeline.id}`,
      writer.token,
      `${SECURE_NAME}=${encodeURIComponent(signed)}`,
    );
    expect(read.start).toBe(bookmark);
    const plain = await callSeeingStart(
      "GET",
      `${https}/api/timelines/${timeline.id}`,
      writer.token,
      `${BOOKMARK_COOKIE}=${encodeURIComponent(signed)}`,
    );
    expect(plain.start).toBe("first-primary");
  });

  it("a malformed bookmark is ignored (the request starts at the primary), never a 500", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token, { title: "Still readable" });
    for (const junk of ["x", "first-unconstrained", "'; DROP TABLE users;--", "0".repeat(500), "%00", "a.b.c", "."]) {
      const read = await call("GET", `/api/timelines/${timeline.id}`, {
        token: writer.token,
        headers: { Cookie: `${BOOKMARK_COOKIE}=${encodeURIComponent(junk)}` },
      });
      expect(read.status, read.text).toBe(200);
      const write = await call("PATCH", `/api/timelines/${timeline.id}`, {
        token: writer.token,
        headers: { Cookie: `${BOOKMARK_COOKIE}=${encodeURIComponent(junk)}` },
        body: { title: "Still readable" },
      });
      expect(write.status, write.text).toBe(200);
    }
  });
});
