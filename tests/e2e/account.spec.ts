import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import { apiAs, createUser, expect, expectNoSeriousA11yViolations, signIn, screenshot, test, waitForHydration, toast } from "./fixtures";

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==", "base64");

test.describe("your data on /account", () => {
  test("change the name, download everything as a zip, and import its JSON back", async ({ page, request }) => {
    test.setTimeout(120_000);
    const writer = await createUser(request, { name: "Rhea Rename" });
    const timeline = await apiAs<{ id: number }>(request, writer, "POST", "/api/timelines", { title: "The Salt Road" });
    const event = await apiAs<{ id: number }>(request, writer, "POST", `/api/timelines/${timeline.id}/events`, {
      title: "Departure",
      content: "They leave at dawn.",
    });
    const uploaded = await request.post(`/api/events/${event.id}/attachments`, {
      headers: { Authorization: `Bearer ${writer.token}` },
      multipart: { file: { name: "map.png", mimeType: "image/png", buffer: PNG } },
    });
    expect(uploaded.status()).toBe(201);
    await signIn(page, writer);

    await page.goto("/account");
    await waitForHydration(page);
    await page.getByLabel("Name", { exact: true }).fill("A");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(toast(page, "Name must be at least 2 characters")).toBeVisible();
    await page.getByLabel("Name", { exact: true }).fill("Rhea Renamed");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(toast(page, "Your name was changed.")).toBeVisible();
    await expect(page.getByText("Rhea Renamed", { exact: true }).first()).toBeVisible();
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Rhea Renamed");
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "account-your-data");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download all my data" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^storyweave-data-\d+-\d{4}-\d{2}-\d{2}\.zip$/);
    const entries = unzipSync(new Uint8Array(await readFile(await download.path())));
    const account = JSON.parse(strFromU8(entries["account.json"]));
    expect(account.profile).toMatchObject({ name: "Rhea Renamed", email: writer.email });
    expect(Buffer.from(entries[`timelines/the-salt-road/attachments/${(await uploaded.json()).id}-map.png`])).toEqual(PNG);
    expect(strFromU8(entries["timelines/the-salt-road/the-salt-road.md"])).toContain("Departure");
    const json = strFromU8(entries["timelines/the-salt-road/the-salt-road.json"]);

    // The zip's JSON goes back in through the home screen's Import.
    await page.goto("/timeline");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Import" }).click();
    const dialog = page.getByRole("dialog", { name: "Import a timeline" });
    await page
      .getByLabel("File (.json, .md, .csv, .tsv, .xlsx, .ods, .docx, .odt, .pltr, .yw7 or a Scrivener/novelWriter .zip)")
      .setInputFiles({ name: "the-salt-road.json", mimeType: "application/json", buffer: Buffer.from(json) });
    await expect(dialog.getByRole("region", { name: "Import preview" })).toContainText("1 event");
    await dialog.getByRole("button", { name: "Import Timeline" }).click();
    await expect(toast(page, 'Imported "The Salt Road"')).toBeVisible();
    await expect(page).toHaveURL(/\/timeline\/\d+$/);
    expect(Number(new URL(page.url()).pathname.split("/").pop())).not.toBe(timeline.id);
  });

  test("delete the account after typing the email; signing in is refused afterwards", async ({ page, request }) => {
    const writer = await createUser(request, { name: "Dora Delete" });
    await apiAs(request, writer, "POST", "/api/timelines", { title: "Gone Soon" });
    await signIn(page, writer);
    await page.goto("/account");
    await waitForHydration(page);

    await page.getByRole("button", { name: "Delete account" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete your account?" });
    const confirm = dialog.getByRole("button", { name: "Delete my account" });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/Type your email/).fill("someone-else@example.test");
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/Type your email/).fill(writer.email);
    await dialog.getByLabel("Password").fill("not-my-password");
    await confirm.click();
    await expect(dialog.getByRole("alert")).toHaveText("Incorrect password");
    await expectNoSeriousA11yViolations(page);
    await screenshot(page, "account-delete-dialog");

    await dialog.getByLabel("Password").fill(writer.password);
    await confirm.click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(toast(page, "Account deleted")).toBeVisible();

    await waitForHydration(page);
    await page.getByLabel("Email").fill(writer.email);
    await page.getByLabel("Password").fill(writer.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Invalid email or password").first()).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);
  });
});
