import { chooseLayout, apiAs, expect, openTimeline, test, toast } from "./fixtures";

test.describe("lanes editing", () => {
  test.use({ writerOptions: { name: "Lane Writer", premium: false }, timelineTitle: "Lanes" });
  test("a scene carried to the 'No character' lane loses its characters, not its places", async ({
    page,
    request,
    writer: owner,
    timeline,
  }) => {
    test.setTimeout(90_000);
    const mara = await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/entities`, {
      kind: "character",
      name: "Mara",
    });
    const harbor = await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/entities`, {
      kind: "place",
      name: "Harbor",
    });
    const storm = await owner.api<{ id: number }>("POST", `/api/timelines/${timeline.id}/events`, {
      title: "Storm",
      content: "Rain.",
      entityIds: [mara.id, harbor.id],
      povEntityId: mara.id,
    });
    await openTimeline(page, timeline.id);
    await chooseLayout(page, "Lanes");
    const lanes = page.getByRole("table", { name: "Lanes by character" });
    // Every scene has a character, yet an editor has the lane to drop on.
    await expect(lanes.getByRole("rowheader")).toHaveText(["Mara1 event", "No character0 events"]);

    await lanes.getByRole("button", { name: /^Storm/ }).focus();
    await page.keyboard.press("Space");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Space");
    await expect(page.getByTestId("lanes-announcement")).toHaveText("Storm now has no character.");
    await expect(toast(page, "Event updated successfully")).toBeVisible();
    await expect(lanes.getByRole("rowheader")).toHaveText(["Mara0 events", "No character1 event"]);

    const events = await apiAs<{ id: number; entityIds: number[]; povEntityId: number | null }[] | { events: never[] }>(
      request,
      owner,
      "GET",
      `/api/timelines/${timeline.id}/events`,
    );
    const list = Array.isArray(events) ? events : events.events;
    const saved = list.find((e: { id: number }) => e.id === storm.id) as { entityIds: number[]; povEntityId: number | null };
    expect(saved).toMatchObject({ entityIds: [harbor.id], povEntityId: null });
  });
});
