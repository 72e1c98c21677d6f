import { card, expect, openTimeline, test, toast, openHome } from "./fixtures";

// Issue 44: 'Link all mentions' on a card (2 or more 'Link {name}?' hints) and for the whole book in the Codex panel.

import type { EventRow as Scene } from "./types";

test.describe("link all mentions", () => {
  test.use({ writerOptions: { name: "Mention Writer", premium: false }, timelineTitle: "Mentions" });
  test("a card links its mentions at once; the Codex panel links every scene's, and says how many", async ({
    page,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(120_000);
    const entry = (body: Record<string, unknown>) =>
      owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/entities`, { kind: "character", ...body });
    const mara = await entry({ name: "Mara", aliases: ["the Captain"] });
    const harbor = await entry({ name: "Harbor", kind: "place" });
    const ilse = await entry({ name: "Ilse" });
    const scene = (title: string, content: string) => owner.api<Scene>("POST", `/api/timelines/${timeline.id}/events`, { title, content });
    await scene("Arrival", "Mara reached the harbor with Ilse.");
    await scene("Storm", "The captain saw the Harbor and Ilse.");
    await scene("Night", "Ilse slept. Marathon dreams.");

    await openHome(page);
    await openTimeline(page, timeline.id);

    // A card with three hints offers them all at once; a card with one offers only its own.
    const arrival = card(page, "Arrival");
    await expect(arrival.getByRole("button", { name: "Link Mara?" })).toBeVisible();
    await expect(arrival.getByRole("button", { name: "Link Harbor?" })).toBeVisible();
    await expect(arrival.getByRole("button", { name: "Link Ilse?" })).toBeVisible();
    await expect(card(page, "Night").getByRole("button", { name: "Link Ilse?" })).toBeVisible();
    await expect(card(page, "Night").getByRole("button", { name: "Link all mentions" })).toHaveCount(0);
    await arrival.getByRole("button", { name: "Link all mentions" }).click();
    await expect(toast(page, "Linked 3 mentions")).toBeVisible();
    await expect(arrival.getByRole("list", { name: "Mentioned but not linked" })).toHaveCount(0);
    // Storm is untouched so far.
    await expect(card(page, "Storm").getByRole("button", { name: "Link all mentions" })).toBeVisible();

    // The book: every other scene's mentions (Storm's three, Night's one) in one press.
    const codex = page.getByRole("region", { name: "Codex" });
    await codex.getByRole("button", { name: "Link all mentions" }).click();
    await expect(toast(page, "Linked 4 mentions")).toBeVisible();
    await expect(page.getByRole("list", { name: "Mentioned but not linked" })).toHaveCount(0);

    // Nothing is left: a second press says so.
    await codex.getByRole("button", { name: "Link all mentions" }).click();
    await expect(toast(page, "Every mention is already linked")).toBeVisible();

    // The server holds the links: whole words only ('Marathon' is not Mara).
    const listed = await owner.api<Scene[] | { events: Scene[] }>("GET", `/api/timelines/${timeline.id}/events`);
    const scenes = Array.isArray(listed) ? listed : listed.events;
    const linksOf = (title: string) => [...(scenes.find((s) => s.title === title)?.entityIds ?? [])].sort((a, b) => a - b);
    const all = [mara.id, harbor.id, ilse.id].sort((a, b) => a - b);
    expect(linksOf("Arrival")).toEqual(all);
    expect(linksOf("Storm")).toEqual(all);
    expect(linksOf("Night")).toEqual([ilse.id]);
  });
});
