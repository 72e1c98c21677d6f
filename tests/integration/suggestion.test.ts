import { describe, expect, it } from "vitest";
import { parseSuggestion } from "../../db/domain/rules";

describe("applying a plot suggestion", () => {
  it("cleans the first line into the title and keeps the rest as content", () => {
    expect(parseSuggestion('\n## **"The Tide Turns"**\n\nThe bell rings.\n  The keeper runs.  \n')).toEqual({
      title: "The Tide Turns",
      content: "The bell rings.\nThe keeper runs.",
    });
  });

  it("cuts titles longer than 50 characters to 47 plus an ellipsis; 50 stays whole", () => {
    const fifty = "x".repeat(50);
    expect(parseSuggestion(fifty)?.title).toBe(fifty);
    const long = parseSuggestion(`# ${"y".repeat(51)}\nbody`);
    expect(long?.title).toBe(`${"y".repeat(47)}...`);
    expect(long?.title).toHaveLength(50);
  });

  it("uses 'No content provided' for a single line and applies nothing for empty text", () => {
    expect(parseSuggestion("Only a title")).toEqual({ title: "Only a title", content: "No content provided" });
    expect(parseSuggestion("   \n \n")).toBeNull();
    expect(parseSuggestion("")).toBeNull();
  });
});
