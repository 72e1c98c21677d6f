import {
  MAIL_API,
  apiAs,
  expect,
  expectNoSeriousA11yViolations,
  latestVerifyLink,
  openTimeline,
  test,
  waitForHydration,
  writerPage,
} from "./fixtures";
import { addBellScene } from "./helpers/timeline";

// The review loop's news: an @mention reaches the collaborator's bell and inbox with a link to the scene;
// an invitation mailed to an address with no account brings a new writer into the timeline once verified.

test.describe("inbox and invitations", () => {
  test.describe(() => {
    test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "The Drowned Bell" });
    test("a collaborator @mentioned in a comment sees the bell's count and follows the link to the scene", async ({
      page,
      browser,
      request,
      writer,
      timeline,
    }) => {
      test.setTimeout(120_000);
      const {
        users: [mara],
      } = await addBellScene(request, writer, timeline, "The bell rang at dawn.", [{ name: "Mara Collab", access: "collaborator" }]);
      await apiAs(request, mara, "POST", "/api/notifications/read", {});
      // Mara is on her account page (no timeline, no room): her bell counts without her navigating.
      const other = await writerPage(browser, mara);
      await other.page.goto("/account");
      await waitForHydration(other.page);
      await expect(other.page.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();

      await openTimeline(page, timeline.id);
      await page.getByRole("button", { name: "Edit The bell" }).click();
      await page.getByRole("button", { name: "Comment on the scene" }).click();
      const box = page.getByRole("textbox", { name: "Comment on the scene" });
      await box.pressSequentially("Please check this, @Ma");
      await page.getByTestId("mention-picker").getByRole("button", { name: "@Mara Collab" }).click();
      await expect(box).toHaveValue("Please check this, @Mara Collab ");
      await box.pressSequentially("thanks");
      await page.getByRole("button", { name: "Post comment" }).click();
      await expect(page.getByTestId("comment").filter({ hasText: "@Mara Collab thanks" })).toBeVisible();

      // Coming back to the window reads the count again (a poll also runs while it is in view).
      await other.page.evaluate(() => window.dispatchEvent(new Event("focus")));
      const bell = other.page.getByRole("link", { name: "Notifications (1 unread)" });
      await expect(bell).toBeVisible();
      await bell.click();
      await expect(other.page).toHaveURL(/\/notifications$/);
      await waitForHydration(other.page);
      const item = other.page.getByTestId("notification").first();
      await expect(item).toContainText('Olive Owner mentioned you in a comment on "The bell" in "The Drowned Bell"');
      await expectNoSeriousA11yViolations(other.page);
      await item.getByRole("link", { name: "Olive Owner mentioned you" }).click();
      await expect(other.page).toHaveURL(new RegExp(`/timeline/${timeline.id}\\?event=\\d+&comment=\\d+$`));
      await expect(other.page.getByRole("heading", { name: "The bell" })).toBeVisible();
      // The link opens the scene's comments with that thread in view and marked.
      const dialog = other.page.getByRole("dialog", { name: "Comments on The bell" });
      const thread = dialog.locator('[data-testid="comment-thread"][aria-current="true"]');
      await expect(thread).toContainText("@Mara Collab thanks");
      await expect(thread).toBeInViewport();
      await other.page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(other.page.getByRole("link", { name: "Notifications", exact: true })).toBeVisible();
      await other.context.close();
    });
  });

  test.describe(() => {
    test.use({ writerOptions: { name: "Olive Owner", premium: true }, timelineTitle: "Invited Tales" });
    test("the Share dialog invites an address with no account; its mailed link, taken by a new account, lands in the book after verifying", async ({
      page,
      browser,
      request,
      timeline,
    }) => {
      test.setTimeout(120_000);
      const email = `newcomer-${Date.now().toString(36)}@example.test`;

      await openTimeline(page, timeline.id);
      await page.getByRole("button", { name: "Share" }).click();
      const dialog = page.getByRole("dialog", { name: "Share Timeline" });
      await dialog.getByRole("tab", { name: "Share with User" }).click();
      await dialog.getByLabel("Email Address").fill(email);
      await dialog.getByRole("button", { name: "Share Timeline" }).click();
      await dialog.getByRole("button", { name: "Send an invitation to sign up" }).click();
      await expect(page.getByText("Invitation sent").first()).toBeVisible();

      let link = "";
      await expect
        .poll(async () => {
          const { messages } = await (await request.get(`${MAIL_API}/messages?to=${encodeURIComponent(email)}`)).json();
          link = messages.map((m: { text: string }) => m.text.match(/https?:\/\/\S+\/auth\/register\?\S+/)?.[0]).find(Boolean) ?? "";
          return link;
        })
        .toContain("invite=");

      const context = await browser.newContext();
      const newcomer = await context.newPage();
      await newcomer.goto(link);
      await waitForHydration(newcomer);
      await expect(newcomer.getByTestId("invitation")).toContainText("Olive Owner invited you to “Invited Tales”");
      await expect(newcomer.getByLabel("Email")).toHaveValue(email);
      await expectNoSeriousA11yViolations(newcomer);
      await newcomer.getByLabel("Name").fill("Nia Newcomer");
      await newcomer.getByLabel("Password").fill("secret-pass-1");
      await newcomer.getByRole("button", { name: "Register" }).click();
      await expect(newcomer).toHaveURL(/\/timeline$/);

      await newcomer.goto(await latestVerifyLink(request, email));
      await newcomer.getByRole("link", { name: "Continue" }).click();
      // Invited as a viewer (the dialog's default): the book opens in its reading view, the Manuscript (issue 48).
      await expect(newcomer).toHaveURL(new RegExp(`/timeline/${timeline.id}/manuscript$`));
      await expect(newcomer.getByRole("heading", { name: "Invited Tales" })).toBeVisible();
      await context.close();
    });
  });
});
