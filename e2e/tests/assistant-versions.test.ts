import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { createAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { openSignedInAt } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";

// Issue 30's browser test: an assistant's editor publishes a second version with a note, compares
// it with the first, splits the calls 50/50 between them in an experiment, and promotes the second.
// Then the same tab on a 390 px phone, in Arabic, right to left and dark: nothing off-screen.

const product = useSignedInProduct();
let page: Page;
let assistantId = "";
const PHONE = { width: 390, height: 844 };
const FIRST_PROMPT = "You take table bookings.";
const SECOND_PROMPT = "You take table bookings, and you always confirm the time twice.";

/** A select's accessible name is its label followed by the shown value, so match the label's start. */
const select = (scope: Page | ReturnType<Page["locator"]>, label: string) =>
  scope.getByRole("combobox", { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) });

beforeAll(async () => {
  assistantId = await createAssistant(product.server, product.token, {
    name: "Front desk",
    system_prompt: FIRST_PROMPT,
  });
  page = product.page;
});

const versionsTab = () => page.getByRole("tabpanel");

describe("assistant versions and experiments in the browser", () => {
  it("edits the prompt and publishes it as version 2 with a note", async () => {
    await page.goto(`${product.server.url}/assistants/${assistantId}?tab=versions`);
    await page.getByRole("tab", { name: "Versions", selected: true }).waitFor();
    await versionsTab().getByText("Calls run version 1.").waitFor();
    const versions = versionsTab().getByRole("table", { name: "Versions" });
    await versions.getByRole("row", { name: /v1 Published/ }).waitFor();
    // Nothing to publish yet: the draft is the published version.
    expect(await versionsTab().getByRole("button", { name: "Publish" }).isDisabled()).toBe(true);
    await versionsTab().getByText("No experiments yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("tab", { name: "Model", exact: true }).click();
    await page.getByRole("textbox", { name: "System prompt" }).fill(SECOND_PROMPT);
    await page.getByRole("tab", { name: "Versions", exact: true }).click();
    await versionsTab().getByText("Unpublished changes").waitFor();
    await versionsTab().getByRole("button", { name: "Publish" }).click();
    const dialog = page.getByRole("dialog", { name: "Publish version 2" });
    await dialog.getByRole("textbox", { name: "Note (optional)" }).fill("Confirm the time twice");
    await dialog.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Version 2 published").waitFor();
    await dialog.waitFor({ state: "detached" });
    await versionsTab().getByText("Calls run version 2.").waitFor();
    // Each version names its author by the name they gave.
    await versions.getByRole("row", { name: /v2 Published Confirm the time twice Administrator/ }).waitFor();
    // The editor holds what was published: nothing is left unsaved.
    expect(await page.getByText("Unsaved changes").count()).toBe(0);
    const published = await apiCall<{ system_prompt: string }>(
      product.server.url,
      product.token,
      "GET",
      `/agents/${assistantId}`,
    );
    expect(published.system_prompt).toBe(SECOND_PROMPT);
  });

  it("compares version 1 with version 2 and shows the changed prompt", async () => {
    const compare = versionsTab().getByRole("region", { name: "Compare versions" });
    await compare.waitFor();
    expect(await select(compare, "From").textContent()).toContain("v1");
    expect(await select(compare, "To").textContent()).toContain("v2");
    const change = compare.getByRole("list", { name: "Changed settings" }).getByRole("listitem");
    await change.filter({ hasText: "system_prompt" }).waitFor();
    expect(await change.count()).toBe(1);
    await change.getByText(FIRST_PROMPT, { exact: true }).waitFor();
    await change.getByText(SECOND_PROMPT, { exact: true }).waitFor();
  });

  it("starts a 50/50 experiment between v1 and v2, refusing shares that do not add up", async () => {
    await versionsTab().getByRole("button", { name: "New experiment" }).click();
    const dialog = page.getByRole("dialog", { name: "New experiment" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Confirm twice");
    expect(await select(dialog, "Version 1").textContent()).toContain("v1");
    expect(await select(dialog, "Version 2").textContent()).toContain("v2");
    await dialog.getByRole("textbox", { name: "Share 1 (%)" }).fill("60");
    await dialog.getByRole("button", { name: "Create" }).click();
    await dialog.getByText("The shares must add up to 100%").waitFor();
    await dialog.getByRole("textbox", { name: "Share 1 (%)" }).fill("50");
    await dialog.getByText("Total: 100%").waitFor();
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.getByText("Experiment “Confirm twice” created").waitFor();
    await dialog.waitFor({ state: "detached" });

    const experiment = versionsTab().getByRole("article", { name: "Confirm twice" });
    expect(await experiment.locator("[data-status]").getAttribute("data-status")).toBe("draft");
    await experiment.getByText(/v1 50% · v2 50% — All calls/).waitFor();
    await experiment.getByRole("button", { name: "Start" }).click();
    const confirm = page.getByRole("dialog", { name: "Start “Confirm twice”?" });
    await confirm.getByRole("button", { name: "Start" }).click();
    await page.getByText("“Confirm twice” started").waitFor();
    await experiment.locator('[data-status="running"]').waitFor();
    await experiment.getByText("No calls yet: results appear as calls end.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("promotes v2: it is published as version 3 and the experiment ends with it as winner", async () => {
    const experiment = versionsTab().getByRole("article", { name: "Confirm twice" });
    await experiment.getByRole("button", { name: "Promote v2" }).click();
    const confirm = page.getByRole("dialog", { name: "Promote version 2?" });
    await confirm.getByText(/Version 2 is published as the next version/).waitFor();
    await confirm.getByRole("button", { name: "Promote v2" }).click();
    await page.getByText("Version 2 promoted: calls run it now").waitFor();
    await experiment.locator('[data-status="ended"]').waitFor();
    await experiment.getByText("Winner: v2").waitFor();
    await versionsTab().getByText("Calls run version 3.").waitFor();
    await versionsTab()
      .getByRole("table", { name: "Versions" })
      .getByRole("row", { name: /v3 Published Promoted v2 from experiment/ })
      .waitFor();
    // Version 2 can be restored from the list (v3 is the published one and offers no restore).
    await versionsTab().getByRole("button", { name: "Restore version 2" }).waitFor();
    expect(await versionsTab().getByRole("button", { name: "Restore version 3" }).count()).toBe(0);
  });

  it("restores version 1 after a confirmation", async () => {
    await versionsTab().getByRole("button", { name: "Restore version 1" }).click();
    const confirm = page.getByRole("dialog", { name: "Restore version 1?" });
    await confirm.getByText(/published again as version 4/).waitFor();
    await confirm.getByRole("button", { name: "Restore" }).click();
    await page.getByText("Version 1 restored").waitFor();
    await versionsTab().getByText("Calls run version 4.").waitFor();
    await page.getByRole("tab", { name: "Model", exact: true }).click();
    expect(await page.getByRole("textbox", { name: "System prompt" }).inputValue()).toBe(FIRST_PROMPT);
  });

  it("fits a 390 px phone in Arabic, right to left and dark mode, every text translated", async () => {
    const phone = await openSignedInAt(product.browser, product.server, "/home");
    await phone.setViewportSize(PHONE);
    await storeArabicDarkMode(phone);
    await phone.goto(`${product.server.url}/assistants/${assistantId}?tab=versions`);
    const panel = phone.getByRole("tabpanel");
    await panel.getByRole("table", { name: "الإصدارات" }).waitFor();
    await panel.getByRole("article", { name: "Confirm twice" }).getByText("الفائز: v2").waitFor();
    await panel.getByRole("region", { name: "مقارنة الإصدارات" }).getByRole("listitem").first().waitFor();
    const look = await phone.evaluate(() => ({
      dir: document.documentElement.dir,
      // Nothing off-screen: the page never scrolls sideways; wide tables scroll inside their box.
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(look).toEqual({ dir: "rtl", overflow: 0 });
    // Every button outside the tables is on screen (a table too wide for a phone scrolls in its own box).
    for (const button of await panel.locator("button:not(table button)").all()) {
      const box = await button.boundingBox();
      if (box) expect(box.x >= 0 && box.x + box.width <= PHONE.width + 1).toBe(true);
    }
    const text = await phone.locator("main").innerText();
    expect(text).not.toMatch(/\b(versions|experiments)\.[a-zA-Z]/);
    expect(await seriousViolations(phone)).toEqual([]);

    // The create dialog fits too.
    await panel.getByRole("button", { name: "تجربة جديدة" }).click();
    const dialog = phone.getByRole("dialog", { name: "تجربة جديدة" });
    await dialog.getByRole("textbox", { name: "النصيب 1 (%)" }).waitFor();
    const dialogBox = await dialog.boundingBox();
    expect(dialogBox && dialogBox.x >= 0 && dialogBox.x + dialogBox.width <= PHONE.width).toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await phone.context().close();
  });
});
