import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { signInToHome } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";

// Issue 32: the assistant editor chooses Pipeline or Realtime; in Realtime the speech-to-speech
// model's provider, model, voice and turn detection come from its descriptor, the cost panel
// estimates a minute at its list prices, and the pipeline's transcriber and voice tabs are hidden.

const product = useSignedInProduct();

const select = (scope: Page | Locator, label: string) => scope.getByRole("combobox", { name: new RegExp(`^${label}`) });

async function choose(page: Page, scope: Page | Locator, combobox: string, option: string) {
  await select(scope, combobox).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

const saveButton = (page: Page) => page.getByRole("button", { name: "Save", exact: true });

interface Saved {
  engine_mode: string;
  realtime: { provider: string; model: string; voice: string; turn_detection: Record<string, unknown> };
}

describe("the assistant's engine mode", () => {
  it("switches to Realtime by keyboard, picks the model and voice, estimates the cost and keeps them", {
    timeout: 180_000,
  }, async () => {
    const { page, server, token } = product;
    const { id } = await apiCall<{ id: string }>(server.url, token, "POST", "/agents", { name: "Realtime desk" });
    await page.goto(`${server.url}/assistants/${id}?tab=model`);
    await page.getByRole("heading", { level: 1, name: "Realtime desk" }).waitFor();
    // The pipeline's tabs are there before the switch (they are drawn with the editor, not the heading).
    await page.getByRole("tab", { name: "Transcriber", exact: true }).waitFor();

    const realtime = page.getByRole("button", { name: "Realtime", exact: true });
    await page.getByRole("button", { name: "Pipeline", exact: true }).focus();
    await page.keyboard.press("Tab");
    await expect.poll(() => realtime.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Space");
    await expect.poll(() => realtime.getAttribute("aria-pressed")).toBe("true");
    // The model hears and speaks itself: no transcriber or voice tab.
    await expect.poll(() => page.getByRole("tab", { name: "Transcriber", exact: true }).count()).toBe(0);
    expect(await page.getByRole("tab", { name: "Voice", exact: true }).count()).toBe(0);

    const model = page.getByRole("region", { name: "Speech-to-speech model" });
    await choose(page, model, "Model", "GPT Realtime mini");
    await choose(page, model, "Voice", "Cedar");
    await choose(page, model, "Turn detection", "Silence");
    await model.getByRole("spinbutton", { name: "Silence that ends a turn (ms)" }).fill("700");
    const estimate = page.getByRole("complementary", { name: "Estimated cost" });
    await estimate.getByText(/\/ min/).waitFor();
    await estimate.getByText(/the caller speaks 50%/).waitFor();

    await saveButton(page).click();
    await page.getByText("Assistant updated").waitFor();
    await expect.poll(() => saveButton(page).isDisabled()).toBe(true);
    const saved = await apiCall<Saved>(server.url, token, "GET", `/agents/${id}`);
    expect(saved.engine_mode).toBe("realtime");
    expect(saved.realtime).toMatchObject({
      provider: "openai-realtime",
      model: "gpt-realtime-mini",
      voice: "cedar",
      turn_detection: { type: "server_vad", silence_duration_ms: 700 },
    });

    // Another vendor's defaults replace the block; its own fields show.
    await choose(page, model, "Provider", "Gemini Live");
    await select(model, "Start-of-speech sensitivity").waitFor();
    expect(await select(model, "Voice").textContent()).toContain("Puck");

    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Realtime desk" }).waitFor();
    expect(await page.getByRole("button", { name: "Realtime", exact: true }).getAttribute("aria-pressed")).toBe("true");
    const reloaded = page.getByRole("region", { name: "Speech-to-speech model" });
    expect(await select(reloaded, "Model").textContent()).toContain("GPT Realtime mini");
    expect(await saveButton(page).isDisabled()).toBe(true);
  });

  it("fits a 390 px phone in Arabic and dark mode with every text translated", { timeout: 180_000 }, async () => {
    const { server, token } = product;
    const { id } = await apiCall<{ id: string }>(server.url, token, "POST", "/agents", {
      name: "Narrow realtime desk",
      engine_mode: "realtime",
      realtime: { provider: "openai-realtime", turn_detection: { type: "server_vad" } },
    });
    const context = await product.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInToHome(page, server);
    await storeArabicDarkMode(page);
    await page.goto(`${server.url}/assistants/${id}?tab=model`);
    await page.getByRole("heading", { level: 1, name: "Narrow realtime desk" }).waitFor();
    await page.getByRole("button", { name: "الوقت الفعلي", exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const text = await page.locator("main").innerText();
    expect(text).not.toMatch(/\brealtime\.[a-zA-Z]/);
    await page.screenshot({ path: "/tmp/h32/realtime-editor-390-ar-dark.png", fullPage: true });
    await context.close();
  });
});
