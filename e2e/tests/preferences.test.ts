import { describe, expect, it } from "vitest";
import { signIn } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();

describe("interface preferences", () => {
  it("keeps dark mode and right-to-left after a reload", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
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
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.getByRole("button", { name: "Open appearance settings" }).click();
    await page.getByRole("combobox", { name: "Language" }).click();
    await page.getByRole("option", { name: "Español" }).click();
    await page.keyboard.press("Escape");
    await page.getByRole("heading", { name: /Bienvenid/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("es");
    await page.close();
  });
});
