import { FAKE_OPENAI_KEY } from "../fakes/openai-server.mjs";
import { expect, test, toast, waitForHydration } from "./fixtures";

// 'Your AI model' on /account: bring your own OpenAI-compatible server (the fake on 127.0.0.1, allowed in development).
const OPENAI_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4319) + 2}/v1`;

test("a writer saves their own model, tests the connection, writes with it uncounted and removes it", async ({ page, writer }) => {
  await page.goto("/account");
  await waitForHydration(page);
  const section = page.getByRole("form", { name: "Your AI model" });
  await expect(section.getByText("Until you set one, the site's model is used.")).toBeVisible();
  await section.getByLabel("Provider").selectOption("openai-compatible");
  await section.getByLabel("Base URL").fill("http://10.0.0.5/v1");
  await section.getByLabel("Model").fill("my-local-model");
  await section.getByLabel("API key").fill(FAKE_OPENAI_KEY);
  await section.getByRole("button", { name: "Save" }).click();
  await expect(section.getByRole("alert")).toHaveText(/private or local address/);

  await section.getByLabel("Base URL").fill(OPENAI_URL);
  await section.getByLabel("API key").fill(FAKE_OPENAI_KEY);
  await section.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Your AI model is saved")).toBeVisible();
  // Write-only: the key field is emptied and never filled from the server.
  await expect(section.getByLabel("API key")).toHaveValue("");
  await section.getByRole("button", { name: "Test connection" }).click();
  await expect(section.getByRole("status")).toHaveText("Connected: your model answered.");

  await page.reload();
  await waitForHydration(page);
  await expect(section.getByText("A key is saved")).toBeVisible();
  await expect(section.getByLabel("Model")).toHaveValue("my-local-model");
  expect(await page.content()).not.toContain(FAKE_OPENAI_KEY);

  // Four ideas on the free plan (allowance 3): all answered by the writer's model, none counted.
  for (let i = 0; i < 4; i++) {
    const r = await writer.api("POST", "/api/ideas/generate", { prompt: `own model ${i}` });
    expect(r.success).toBe(true);
  }
  expect(await writer.api("GET", "/api/ai/usage")).toEqual({ used: 0, limit: 3, premium: false });

  await section.getByRole("button", { name: "Remove" }).click();
  await expect(toast(page, "Your AI model is removed")).toBeVisible();
  await expect(section.getByText("Until you set one, the site's model is used.")).toBeVisible();
  expect(await writer.api("GET", "/api/account/ai")).toEqual({ provider: null, baseUrl: null, model: null, keySet: false });
});
