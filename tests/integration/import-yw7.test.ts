import { beforeAll, describe, expect, it } from "vitest";
import { entityPalette } from "../../db/domain/rules";
import sample from "../fixtures/import/yw7-sample-project.yw7?raw";
import { call, type User, premiumWriter, importBook } from "./helpers";

// yWriter 7's own sample project (Hal Spacejock), as kept in PyWriter's tests (tests/fixtures/import/README.md).
let owner: User;
beforeAll(async () => {
  owner = await premiumWriter("Simon");
});

const importXml = (text: string, query = "", type = "application/xml") => importBook(owner.token, text, type, query);

describe("yWriter 7 .yw7 import", () => {
  it("names a scene dated relative to the story's start (yWriter's Day 1) as left without a story date", async () => {
    const res = await importXml(sample, "?dryRun=1");
    expect(res.status, res.text).toBe(200);
    // The sample's first scene, "Meet Hal", is dated Day 1 and no other scene has a date.
    expect(res.json.summary.skipped).toContain("the relative date (day and hour from the story's start) of 1 scene: no story date set");
  });

  it("makes chapters and scenes in order, emphasis from [i]/[b], codex from characters and locations, POV and links", async () => {
    const res = await importXml(sample, "?filename=yW7 Sample Project.yw7");
    expect(res.status, res.text).toBe(201);
    const doc = (await call("GET", `/api/timelines/${res.json.id}/export?format=json`, { token: owner.token })).json;
    expect(doc.timeline.title).toBe("Hal Spacejock book one - Sample yWriter Project");
    expect(doc.chapters.map((c: { title: string }) => c.title)).toEqual(["Chapter 1", "Chapter 2", "Chapter 3", "Chapter 4", "Chapter 5"]);
    expect(doc.events.map((e: { title: string; chapter: number }) => [e.chapter, e.title]).slice(0, 4)).toEqual([
      [0, "Meet Hal, threatened by Vurdi"],
      [1, "Jerling buys team. Discusses Seraph."],
      [1, "Hal takes a call from Jerling"],
      [2, "Clunk arrives"],
    ]);
    const first = doc.events[0];
    expect(first.content).toContain("Hal Spacejock was sitting at the *Black Gull's* flight console");
    expect(first.content).toContain('"**Planet books** have a chess title on sale."');
    expect(first.content).not.toMatch(/\[\/?[ib]\]/);
    expect(first.pov).toBe("Hal");
    expect(first.entities).toEqual(expect.arrayContaining(["Hal", "Navcom", "Vurdi", "Brutus", "Black Gull", "Lamira Spaceport"]));
    const hal = doc.entities.find((e: { name: string }) => e.name === "Hal");
    expect(hal).toMatchObject({ kind: "character", aliases: ["Spacejock", "Hal Spacejock"] });
    expect(hal.description).toContain("cargo game");
    expect(doc.entities.find((e: { name: string }) => e.name === "Black Gull").kind).toBe("place");
    // Each character its own colour, as entries made in the app.
    const characters = doc.entities.filter((e: { kind: string }) => e.kind === "character").map((e: { color: string }) => e.color);
    expect(characters.length).toBeGreaterThan(2);
    expect(new Set(characters).size).toBe(Math.min(characters.length, entityPalette.character.length));
  });

  it("leaves out unused and notes chapters and unused scenes, drops other codes, and takes text/xml", async () => {
    const yw7 = `<?xml version="1.0" encoding="utf-8"?>
<YWRITER7><PROJECT><Title><![CDATA[Small]]></Title></PROJECT>
<ITEMS><ITEM><ID>1</ID><Title><![CDATA[Sword]]></Title></ITEM></ITEMS>
<SCENES>
<SCENE><ID>1</ID><Title>One</Title><SceneContent><![CDATA[[u]Under[/u] and [i]it[/i] & <more>]]></SceneContent><Items><ItemID>1</ItemID></Items><SpecificDateTime>2021-03-04 10:30:00</SpecificDateTime></SCENE>
<SCENE><ID>2</ID><Title>Cut</Title><Unused>-1</Unused><SceneContent>gone</SceneContent></SCENE>
<SCENE><ID>3</ID><Title>Note</Title><SceneContent>note text</SceneContent></SCENE>
</SCENES>
<CHAPTERS>
<CHAPTER><ID>1</ID><Title>Real</Title><Type>0</Type><Scenes><ScID>1</ScID><ScID>2</ScID></Scenes></CHAPTER>
<CHAPTER><ID>2</ID><Title>Notes</Title><Type>1</Type><ChapterType>1</ChapterType><Scenes><ScID>3</ScID></Scenes></CHAPTER>
</CHAPTERS></YWRITER7>`;
    const res = await importXml(yw7, "", "text/xml");
    expect(res.status, res.text).toBe(201);
    const doc = (await call("GET", `/api/timelines/${res.json.id}/export?format=json`, { token: owner.token })).json;
    expect(doc.chapters.map((c: { title: string }) => c.title)).toEqual(["Real"]);
    expect(doc.events).toHaveLength(1);
    expect(doc.events[0]).toMatchObject({ content: "Under and *it* & \\<more>", entities: ["Sword"], storyStart: "2021-03-04T10:30" });
    expect(doc.entities[0]).toMatchObject({ name: "Sword", kind: "thing" });
  });

  it("refuses external entities, billion laughs, a non-yWriter root and a PNG, writing nothing", async () => {
    const before = await call("GET", "/api/timelines", { token: owner.token });
    const bodies = [
      `<?xml version="1.0"?><!DOCTYPE YWRITER7 [<!ENTITY e SYSTEM "file:///etc/passwd">]><YWRITER7><PROJECT><Title>&e;</Title></PROJECT></YWRITER7>`,
      `<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><YWRITER7><PROJECT><Title>&c;</Title></PROJECT></YWRITER7>`,
      `<?xml version="1.0"?><html><body/></html>`,
      "\u0089PNG\r\n\u001a\n",
    ];
    for (const body of bodies) {
      const res = await importXml(body);
      expect(res.status, res.text).toBe(400);
      expect(res.json.error).toMatch(/^This yWriter project could not be read: /);
      expect(res.text).not.toContain("root:");
      expect(res.text).not.toContain("aaaaaaaaaaaaaaaaaaaa");
    }
    expect((await call("GET", "/api/timelines", { token: owner.token })).json).toEqual(before.json);
  });
});
