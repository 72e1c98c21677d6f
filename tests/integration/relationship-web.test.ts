import { describe, expect, it } from "vitest";
import { familyTreeLayout } from "~/features/relationships/family-tree-layout";
import {
  circleLayout,
  familyLinks,
  generationOf,
  joinedEntries,
  relationshipsAsOf,
  webLinks,
} from "~/features/relationships/relationship-web";
import { layoutFromParams } from "../../app/features/timeline/timeline-view";

// The Relationships view's model (DESIGN.md §12): as of a scene, the family tree's labels, the web's edges.

const rel = (id: number, fromId: number, label: string, toId: number, sinceEventId: number | null = null) => ({
  id,
  fromId,
  toId,
  label,
  sinceEventId,
});
const scenes = [
  { id: 10, title: "The Gate" },
  { id: 20, title: "The Duel" },
  { id: 30, title: "The Crown" },
];

describe("relationshipsAsOf", () => {
  const list = [rel(1, 1, "mother of", 2), rel(2, 2, "rival of", 3, 10), rel(3, 3, "daughter of", 1, 30), rel(4, 1, "ally of", 3, 99)];

  it("keeps those from the start and those whose scene comes at or before the chosen one in story order", () => {
    expect(relationshipsAsOf(list, scenes, 20).map((r) => r.id)).toEqual([1, 2]);
    expect(relationshipsAsOf(list, scenes, 10).map((r) => r.id)).toEqual([1, 2]);
    expect(relationshipsAsOf(list, scenes, 30).map((r) => r.id)).toEqual([1, 2, 3]);
  });

  it("follows story order, not the scenes' ids", () => {
    const reordered = [scenes[2], scenes[0], scenes[1]];
    expect(relationshipsAsOf(list, reordered, 30).map((r) => r.id)).toEqual([1, 3]);
  });

  it("shows every one for the whole story, and leaves out one whose scene is not listed as of any scene", () => {
    expect(relationshipsAsOf(list, scenes, null).map((r) => r.id)).toEqual([1, 2, 3, 4]);
    expect(relationshipsAsOf(list, scenes, 30).some((r) => r.id === 4)).toBe(false);
  });
});

describe("generationOf", () => {
  it("reads a parent's words as parent and a child's as child", () => {
    for (const label of ["parent of", "Mother of", "father", "is the father of", "mum of", "Dad", "stepmother of", "adoptive father of"]) {
      expect(generationOf(label), label).toBe("parent");
    }
    for (const label of ["child of", "son of", "Daughter of", "is the son of", "stepson of", "foster child of"]) {
      expect(generationOf(label), label).toBe("child");
    }
  });

  it("leaves other labels out of the family tree", () => {
    for (const label of ["sister of", "grandmother of", "rival of", "parent figure to", "mother-in-law of", "godfather of", ""]) {
      expect(generationOf(label), label).toBeNull();
    }
  });
});

describe("the tree and the web", () => {
  it("turns child labels round so the parent comes first", () => {
    const links = familyLinks([rel(1, 1, "mother of", 2), rel(2, 3, "daughter of", 1), rel(3, 2, "rival of", 3)]);
    expect(links.map((l) => [l.parentId, l.childId])).toEqual([
      [1, 2],
      [1, 3],
    ]);
  });

  it("lays the tree out top-down: parents above children, a generation below another", () => {
    const at = familyTreeLayout(
      [1, 2, 3, 4],
      [
        { parentId: 1, childId: 2 },
        { parentId: 1, childId: 3 },
        { parentId: 2, childId: 4 },
      ],
      160,
      44,
    );
    const y = (id: number) => at.get(id)?.y ?? Number.NaN;
    expect(y(1)).toBeLessThan(y(2));
    expect(y(2)).toBe(y(3));
    expect(y(2)).toBeLessThan(y(4));
  });

  it("joins the labels of one ordered pair, and keeps the reverse pair apart", () => {
    expect(webLinks([rel(1, 1, "sister of", 2), rel(2, 1, "rival of", 2), rel(3, 2, "sister of", 1)])).toEqual([
      { fromId: 1, toId: 2, label: "sister of · rival of" },
      { fromId: 2, toId: 1, label: "sister of" },
    ]);
  });

  it("draws only the entries a relationship joins, each at its own place", () => {
    const entries = [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }];
    expect(joinedEntries(entries, [rel(1, 3, "ally of", 1)]).map((e) => e.id)).toEqual([1, 3]);
    const at = circleLayout([1, 2, 3, 4, 5, 6], 160, 44);
    expect(new Set([...at.values()].map((p) => `${p.x},${p.y}`)).size).toBe(6);
  });

  it("opens from the address as ?layout=relationships", () => {
    expect(layoutFromParams(new URLSearchParams("layout=relationships"))).toBe("relationships");
  });
});
