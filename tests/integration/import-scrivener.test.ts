import { beforeAll, describe, expect, it } from "vitest";
import { strToU8, zipSync } from "fflate";
import coronersZip from "../fixtures/import/scrivener-coroners-tale.zip?inline";
import { call, bytesOf, type User, premiumWriter, importBook, exportedJson } from "./helpers";

// A real Scrivener 3 project (tests/fixtures/import/README.md) and a small one built here around real RTF markup.
let owner: User;
beforeAll(async () => {
  owner = await premiumWriter("Scrivener User");
});
const importZip = (body: Uint8Array, query = "") => importBook(owner.token, body, "application/zip", query);
const exported = (id: number) => exportedJson(owner.token, id);

const RTF = (body: string) =>
  `{\\rtf1\\ansi\\ansicpg1252\\uc1\\deff0{\\fonttbl{\\f0\\fnil Palatino;}}{\\colortbl;\\red0\\green0\\blue0;}{\\*\\expandedcolortbl;;}\\pard\\plain \\f0\\fs24 ${body}}`;
const item = (uuid: string, type: string, title: string, children = "") =>
  `<BinderItem UUID="${uuid}" Type="${type}"><Title>${title}</Title>${children ? `<Children>${children}</Children>` : ""}</BinderItem>`;

function project() {
  const binder = [
    item(
      "D",
      "DraftFolder",
      "Manuscript",
      item(
        "C1",
        "Folder",
        "Chapter One:\n  The Beginning",
        item("S1", "Text", "Arrival") + item("G", "Folder", "Group", item("S2", "Text", "Deep scene")),
      ) + item("C2", "Folder", "Chapter Two"),
    ),
    item("R", "ResearchFolder", "Research", item("X", "Text", "Notes")),
    item("K", "Folder", "Characters", item("P1", "Text", "Mara")),
    item("L", "Folder", "Locations", item("P2", "Text", "The Harbour")),
    item("T", "TrashFolder", "Trash", item("Z", "Text", "Deleted")),
  ].join("");
  return zipSync({
    "My Book.scriv/My Book.scrivx": strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><ScrivenerProject><Binder>${binder}</Binder></ScrivenerProject>`,
    ),
    "My Book.scriv/Files/Data/S1/content.rtf": strToU8(
      RTF("Mara came in {\\b bold} and {\\i quiet}.\\par Second \\'93para\\'94 \\u8212\\'97 done."),
    ),
    "My Book.scriv/Files/Data/S2/content.rtf": strToU8(RTF("Deep text.")),
    "My Book.scriv/Files/Data/S1/synopsis.txt": strToU8("Mara arrives; AUTHORCARD not for print.\r\n"),
    "My Book.scriv/Files/Data/C2/content.rtf": strToU8(RTF("The chapter's own text.")),
    "My Book.scriv/Files/Data/P1/content.rtf": strToU8(RTF("A sailor.")),
    "My Book.scriv/Files/Data/P2/content.rtf": strToU8(RTF("Grey water.")),
    "My Book.scriv/Files/Data/X/content.rtf": strToU8(RTF("research")),
    "My Book.scriv/Files/Data/Z/content.rtf": strToU8(RTF("trash")),
  });
}

describe("Scrivener 3 project import", () => {
  it("makes the Draft's folders chapters and their texts scenes, with emphasis; codex from Characters and Locations", async () => {
    const res = await importZip(project());
    expect(res.status, res.text).toBe(201);
    const doc = await exported(res.json.id);
    expect(doc.timeline.title).toBe("My Book");
    expect(doc.chapters.map((c: { title: string }) => c.title)).toEqual(["Chapter One: The Beginning", "Chapter Two"]);
    expect(doc.events.map((e: { title: string; chapter: number }) => [e.chapter, e.title])).toEqual([
      [0, "Arrival"],
      [0, "Deep scene"],
      [1, "Chapter Two"],
    ]);
    expect(doc.events[0].content).toBe("Mara came in **bold** and *quiet*.\n\nSecond “para” — done.");
    // The index card's synopsis is the scene's notes (DESIGN §12), never its text.
    expect(doc.events[0].notes).toBe("Mara arrives; AUTHORCARD not for print.");
    expect(doc.events[0].content).not.toContain("AUTHORCARD");
    expect(doc.events[1]).not.toHaveProperty("notes");
    expect(doc.entities.map((e: { kind: string; name: string; description: string }) => [e.kind, e.name, e.description])).toEqual([
      ["character", "Mara", "A sailor."],
      ["place", "The Harbour", "Grey water."],
    ]);
    expect(JSON.stringify(doc)).not.toMatch(/research|trash/);
  });

  it("reads a real project: its binder titles in order", async () => {
    const res = await importZip(bytesOf(coronersZip), "?dryRun=1");
    expect(res.status, res.text).toBe(200);
    expect(res.json.summary).toMatchObject({ title: "A Coroners Tale Temp2", chapters: 1 });
    expect(res.json.summary.scenes).toBeGreaterThan(20);
    const made = await importZip(bytesOf(coronersZip));
    expect(made.status, made.text).toBe(201);
    const doc = await exported(made.json.id);
    expect(doc.events.slice(0, 2).map((e: { title: string }) => e.title)).toEqual([
      "Sarah is burgled",
      "Meg sees Edwin arrive at the magistrate's house",
    ]);
  });

  it("makes the labels the Draft uses plotlines with their colours, and the draft target the timeline's target", async () => {
    const made = await importZip(bytesOf(coronersZip));
    expect(made.status, made.text).toBe(201);
    expect(made.json.targetWords).toBe(70000);
    expect((await call("GET", `/api/timelines/${made.json.id}`, { token: owner.token })).json.targetWords).toBe(70000);
    const doc = await exported(made.json.id);
    expect(doc.timeline.targetWords).toBe(70000);
    // In the project's label order, "No Label" none of them.
    expect(doc.plotlines).toEqual([
      { title: "POV: Meg", color: "#ff0000" },
      { title: "POV: Sarah", color: "#5500ff" },
      { title: "POV: Edwin", color: "#63c500" },
      { title: "POV: General narrator", color: "#ffff00" },
    ]);
    // The binder's first scenes carry labels 1 (Sarah) and 0 (Meg); the .scrivx gives 23 texts label 0, 7 label 1,
    // 32 label 2, 3 label 3 and 3 none.
    expect(doc.events.slice(0, 2).map((e: { plotlines?: number[] }) => e.plotlines)).toEqual([[1], [0]]);
    const inPlotline = (i: number) => doc.events.filter((e: { plotlines?: number[] }) => e.plotlines?.[0] === i).length;
    expect([0, 1, 2, 3].map(inPlotline)).toEqual([23, 7, 32, 3]);
    expect(doc.events.filter((e: { plotlines?: number[] }) => !e.plotlines).length).toBe(3);
  });

  it("a project without labels or a target in words makes no plotlines and no target", async () => {
    const res = await importZip(project());
    expect(res.status, res.text).toBe(201);
    expect(res.json.targetWords).toBeNull();
    expect((await exported(res.json.id)).plotlines).toBeUndefined();
  });
});
