import { describe, expect, it } from "vitest";
import { openHomePage } from "../support/browser.ts";
import { chooseLanguage } from "../support/preferences.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();

describe("interface preferences", () => {
  it("keeps dark mode and right-to-left after a reload", async () => {
    const page = await openHomePage(product.browser, product.server);
    await page.getByRole("button", { name: "Open appearance settings" }).click();
    await page.getByRole("button", { name: "Dark" }).click();
    await page.getByRole("button", { name: "Right to left" }).click();
    const read = () =>
      page.evaluate(() => ({
        dir: document.documentElement.dir,
        background: getComputedStyle(document.body).backgroundColor,
      }));
    expect(await read()).toEqual({ dir: "rtl", background: "rgb(18, 18, 18)" });
    await page.reload();
    await page.getByRole("heading", { name: /Welcome/ }).waitFor();
    expect(await read()).toEqual({ dir: "rtl", background: "rgb(18, 18, 18)" });
    await page.close();
  });

  it("switches the interface language, loading it on demand", async () => {
    const page = await openHomePage(product.browser, product.server);
    await chooseLanguage(page, "Español");
    await page.getByRole("heading", { name: /Bienvenid/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("es");
    await page.close();
  });
});
