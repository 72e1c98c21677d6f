import { describe, expect, it } from "vitest";
import { loginPathFor, resolveRedirect } from "./redirect";

const ORIGIN = "https://storyweave.example";

describe("resolveRedirect", () => {
  it("keeps a path on this site with its query and fragment", () => {
    expect(resolveRedirect("/timeline/shared/ab12?view=list#e3", ORIGIN)).toBe("/timeline/shared/ab12?view=list#e3");
    expect(resolveRedirect(`${ORIGIN}/account?x=1`, ORIGIN)).toBe("/account?x=1");
    expect(resolveRedirect("/timeline/%2F%2Fevil.example", ORIGIN)).toBe("/timeline/%2F%2Fevil.example");
  });

  it("sends everything else to /timeline", () => {
    const refused = [
      null,
      undefined,
      "",
      "/\t/127.0.0.1:5193/phish",
      "/\n/evil.example",
      "//evil.example",
      "///evil.example",
      "/\\evil.example",
      "/.//evil.example",
      "/%2e//evil.example",
      "https://evil.example/",
      "https://storyweave.example.evil.example/",
      "http://storyweave.example/",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      `/${"a".repeat(600)}`,
    ];
    for (const value of refused) expect(resolveRedirect(value, ORIGIN), JSON.stringify(value)).toBe("/timeline");
  });

  it("the login page's return address round-trips through the query", () => {
    const path = "/timeline/shared/ab12?view=list";
    const url = new URL(loginPathFor(path), ORIGIN);
    expect(url.pathname).toBe("/auth/login");
    expect(resolveRedirect(url.searchParams.get("redirectTo"), ORIGIN)).toBe(path);
  });
});
