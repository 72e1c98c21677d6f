// The scene editor on the timeline screen: opening it and selecting its text, as the co-writing specs do.
import type { Locator, Page } from "@playwright/test";
import { expect } from "../fixtures";

/**
 * Opens the editor of the scene titled `title` (its card's 'Edit {title}' button) and waits until the doc is
 * synced: the editor is editable and shows `text`. Returns the editor's content.
 */
export async function openEditor(page: Page, text: string, title = "The bell") {
  await page.getByRole("button", { name: `Edit ${title}` }).click();
  const content = page.getByLabel("Content", { exact: true });
  await expect(content).toHaveAttribute("contenteditable", "true");
  await expect(content).toContainText(text);
  return content;
}

/** Selects `text` inside `root` (a DOM selection, as a mouse drag makes); the other writers' caret labels are passed over. */
export async function selectText(root: Locator, text: string) {
  await root.evaluate((el, text) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
      acceptNode: (n) => (n.parentElement?.closest(".collaboration-carets__caret") ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
    });
    for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
      const at = n.data.indexOf(text);
      if (at < 0) continue;
      const range = document.createRange();
      range.setStart(n, at);
      range.setEnd(n, at + text.length);
      const selection = window.getSelection() as Selection;
      selection.removeAllRanges();
      selection.addRange(range);
      return;
    }
    throw new Error(`no "${text}" in the text`);
  }, text);
}
