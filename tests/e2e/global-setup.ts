import { request } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { adminApiToken } from "./fixtures";

/**
 * Registers and verifies admin@storyweave.local once, before the workers start: two workers signing the admin in
 * for the first time at once would both register it and race for its one verification link.
 */
export default async function globalSetup() {
  const context = await request.newContext({ baseURL });
  try {
    await adminApiToken(context);
  } finally {
    await context.dispose();
  }
}
