import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { signInToHome } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";

// Issue 27: an assistant's backups per stage and its fault policy are set in the editor's
// Reliability tab with the stages' own pickers, saved, and shown again after a reload.

const product = useSignedInProduct();

/** A select's accessible name is its label followed by the shown value, so match the label's start. */
const select = (scope: Page | Locator, label: string) => scope.getByRole("combobox", { name: new RegExp(`^${label}`) });

async function choose(page: Page, scope: Page | Locator, combobox: string, option: string) {
  await select(scope, combobox).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

const saveButton = (page: Page) => page.getByRole("button", { name: "Save", exact: true });

interface Saved {
  fallback_providers: {
    llm: { provider: string; config: { model: string } }[];
    tts: { provider: string; config: { model: string; voice: string } }[];
  };
  fault_policy: { first_token_timeout_ms: number; give_up: string; transfer_number: string | null };
}

describe("the assistant's reliability settings", () => {
  it("adds a backup model and voice, sets the waits and transfer on failure, and keeps them after a reload", {
    timeout: 180_000,
  }, async () => {
    const { page, server, token } = product;
    const { id } = await apiCall<{ id: string }>(server.url, token, "POST", "/agents", { name: "Resilient desk" });
    await page.goto(`${server.url}/assistants/${id}?tab=reliability`);
    await page.getByRole("heading", { level: 1, name: "Resilient desk" }).waitFor();
    expect(await page.getByRole("tab", { name: "Reliability", exact: true }).getAttribute("aria-selected")).toBe(
      "true",
    );

    await page.getByRole("button", { name: "Add a backup model" }).click();
    const model = page.getByRole("region", { name: "Backup model 1" });
    await choose(page, model, "Language model provider", "Anthropic");
    // The model picker is the Model tab's: it offers the provider's models and picks the first.
    await expect.poll(() => model.getByRole("combobox", { name: "Model", exact: true }).inputValue()).not.toBe("");
    const chosenModel = await model.getByRole("combobox", { name: "Model", exact: true }).inputValue();

    await page.getByRole("button", { name: "Add a backup voice" }).click();
    const voice = page.getByRole("region", { name: "Backup voice 1" });
    await choose(page, voice, "Voice provider", "Local (offline, eSpeak NG)");
    await expect
      .poll(() => voice.getByRole("combobox", { name: "Voice model", exact: true }).inputValue())
      .toBe("espeak-ng");

    await page.getByRole("spinbutton", { name: "Model answer timeout (seconds)" }).fill("2.5");
    await choose(page, page, "When nothing works", "Transfer to a number");
    const number = page.getByRole("textbox", { name: "Transfer number" });
    await number.fill("555-0100");
    await saveButton(page).click();
    await page.getByText("Enter a number in E.164 form (+14155550100) or a sip: address").waitFor();
    expect(await number.getAttribute("aria-invalid")).toBe("true");

    await number.fill("+14155550100");
    await saveButton(page).click();
    await page.getByText("Assistant updated").waitFor();
    // What the server kept is what the form holds: nothing is left to save.
    await expect.poll(() => saveButton(page).isDisabled()).toBe(true);
    expect(await page.getByText("Unsaved changes").count()).toBe(0);

    const saved = await apiCall<Saved>(server.url, token, "GET", `/agents/${id}`);
    expect(saved.fallback_providers.llm).toEqual([
      expect.objectContaining({ provider: "anthropic", config: expect.objectContaining({ model: chosenModel }) }),
    ]);
    expect(saved.fallback_providers.tts[0]).toMatchObject({ provider: "local", config: { model: "espeak-ng" } });
    expect(saved.fault_policy).toMatchObject({
      first_token_timeout_ms: 2500,
      give_up: "transfer",
      transfer_number: "+14155550100",
    });

    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Resilient desk" }).waitFor();
    const reloadedModel = page.getByRole("region", { name: "Backup model 1" });
    await expect
      .poll(() => reloadedModel.getByRole("combobox", { name: "Model", exact: true }).inputValue())
      .toBe(chosenModel);
    expect(await select(reloadedModel, "Language model provider").textContent()).toContain("Anthropic");
    const reloadedVoice = page.getByRole("region", { name: "Backup voice 1" });
    expect(await reloadedVoice.getByRole("combobox", { name: "Voice model", exact: true }).inputValue()).toBe(
      "espeak-ng",
    );
    expect(await page.getByRole("spinbutton", { name: "Model answer timeout (seconds)" }).inputValue()).toBe("2.5");
    expect(await page.getByRole("textbox", { name: "Transfer number" }).inputValue()).toBe("+14155550100");
    // A loaded form is a clean form.
    expect(await saveButton(page).isDisabled()).toBe(true);

    // The list is ordered and bounded: a second backup voice can be moved first, by keyboard.
    await page.getByRole("button", { name: "Add a backup voice" }).click();
    const moveUp = page.getByRole("button", { name: "Move Backup voice 2 up" });
    await moveUp.focus();
    await page.keyboard.press("Enter");
    await page.getByText("Unsaved changes").waitFor();
    await page.getByRole("button", { name: "Remove Backup voice 2" }).click();
    await page.getByRole("button", { name: "Remove Backup voice 1" }).click();
    await expect.poll(() => page.getByRole("region", { name: /^Backup voice \d/ }).count()).toBe(0);
  });

  it("fits a 390 px phone in Arabic and dark mode with every text translated", { timeout: 180_000 }, async () => {
    const { server, token } = product;
    const { id } = await apiCall<{ id: string }>(server.url, token, "POST", "/agents", {
      name: "Narrow desk",
      fallback_providers: {
        llm: [{ provider: "anthropic", config: { model: "claude-3-5-haiku-latest" } }],
        stt: [],
        tts: [{ provider: "local", config: { model: "espeak-ng", voice: "en-us" } }],
      },
    });
    const context = await product.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInToHome(page, server);
    await storeArabicDarkMode(page);
    await page.goto(`${server.url}/assistants/${id}?tab=reliability`);
    await page.getByRole("heading", { level: 1, name: "Narrow desk" }).waitFor();
    await page.getByRole("region", { name: "النموذج البديل 1" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const text = await page.locator("main").innerText();
    expect(text).not.toMatch(/\b(reliability|backups|policy)\.[a-zA-Z]/);
    await page.screenshot({ path: "/tmp/h27/reliability-390-ar-dark.png", fullPage: true });
    await context.close();
  });
});
