import { describe, expect, it } from "vitest";
import { entityLimits, characterNameFrom, mapRowId } from "./rules";

describe("characterNameFrom", () => {
  it("reads a labelled name line, whatever the markdown around it", () => {
    expect(characterNameFrom("Name: Mara Quill\n\nBackground: a smuggler.")).toBe("Mara Quill");
    expect(characterNameFrom("## Character profile\n\n**Name:** Elias Thorne, 54\n- Wants: peace")).toBe("Elias Thorne");
    expect(characterNameFrom('- name – "Wren" (the baker)')).toBe("Wren");
  });

  it("falls back to the first line", () => {
    expect(characterNameFrom("# Captain Ilse Varga\n\nAge: 41")).toBe("Captain Ilse Varga");
    expect(characterNameFrom("\n\n  ")).toBe("");
  });

  it("never exceeds the codex name limit", () => {
    expect(characterNameFrom(`Name: ${"x".repeat(300)}`)).toHaveLength(entityLimits.name);
  });
});

describe("mapRowId", () => {
  it("takes the row id after the kind, whatever the kind", () => {
    expect(mapRowId("idea-7")).toBe("7");
    expect(mapRowId("entity-123")).toBe("123");
    expect(mapRowId("edge-40")).toBe("40");
  });
});
