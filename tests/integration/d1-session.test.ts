import { describe, expect, it } from "vitest";
import { BOOKMARK_COOKIE } from "../../worker/lib/d1-session";
import { call, createTimeline, registerUser } from "./helpers";

const bookmarkFrom = (setCookie: string | null) => setCookie?.match(new RegExp(`${BOOKMARK_COOKIE}=([^;,]+)`))?.[1] ?? null;

describe("D1 sessions (read replication)", () => {
  it("a write hands the browser its bookmark; the next read starts from it and sees the write", async () => {
    const writer = await registerUser();
    const res = await call("POST", "/api/timelines", { token: writer.token, body: { title: "Bookmarked", description: "" } });
    expect(res.status, res.text).toBe(201);
    const bookmark = bookmarkFrom(res.headers.get("Set-Cookie"));
    expect(bookmark).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/i);
    expect(res.headers.get("Set-Cookie")).toContain("HttpOnly");

    const read = await call("GET", `/api/timelines/${res.json.id}`, {
      token: writer.token,
      headers: { Cookie: `${BOOKMARK_COOKIE}=${bookmark}` },
    });
    expect(read.status, read.text).toBe(200);
    expect(read.json.title).toBe("Bookmarked");
    // Reads leave the cookie alone.
    expect(bookmarkFrom(read.headers.get("Set-Cookie"))).toBeNull();
  });

  it("a forged or malformed bookmark is ignored (the request starts at the primary), never a 500", async () => {
    const writer = await registerUser();
    const timeline = await createTimeline(writer.token, { title: "Still readable" });
    for (const junk of ["x", "first-unconstrained", "'; DROP TABLE users;--", "0".repeat(500), "%00"]) {
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
