import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { adminToken, apiCall, apiLogin, createUser } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { openHomePage } from "../support/browser.ts";
import { chooseLanguage } from "../support/preferences.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();

const figure = (page: Page, key: string) => page.locator(`[data-figure="${key}"]`);

describe("home dashboard", () => {
  it("shows a new user's empty figures, then counts an assistant created through the API", async () => {
    const user = await createUser(product.server.url, await adminToken(product.server), "Dash Board");
    const page = await openHomePage(product.browser, product.server, user);
    await page.getByRole("heading", { name: "Welcome, Dash Board" }).waitFor();
    for (const key of ["assistants", "callsThisMonth", "minutesThisMonth", "activeCalls"]) {
      await figure(page, key).waitFor();
      expect(await figure(page, key).textContent()).toBe("0");
    }
    await page.getByText("No calls yet").waitFor();
    await page.getByRole("heading", { name: "Current workspace" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const userToken = await apiLogin(product.server.url, user.username, user.password);
    await apiCall(product.server.url, userToken, "POST", "/agents", { name: "Front Desk" });
    await page.reload();
    await figure(page, "assistants").getByText("1").waitFor();

    await page.getByRole("link", { name: "Create an assistant" }).click();
    await page.waitForURL((url) => url.pathname === "/assistants");
    await page.goBack();
    await page.getByRole("link", { name: "Talk to an assistant" }).click();
    await page.waitForURL((url) => url.pathname === "/assistant");
    await page.close();
  });

  it("lays the dashboard out right to left in Arabic", async () => {
    const page = await openHomePage(product.browser, product.server);
    await chooseLanguage(page, "العربية");
    await page.getByRole("heading", { name: "أحدث المكالمات" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    await page.close();
  });
});
