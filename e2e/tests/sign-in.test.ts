import { describe, expect, it } from "vitest";
import { signIn, signOut } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();

describe("signing in", () => {
  it("sends a visitor to the login page and back to where they were going after sign-in", async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.server.url}/home`);
    await page.waitForURL(/\/auth\/login$/);
    await signIn(page, null, product.server.admin.email, product.server.admin.password);
    await page.waitForURL(/\/home$/);
    await page.getByRole("heading", { name: /Welcome, Administrator/ }).waitFor();
    await page.close();
  });

  it("offers single sign-on only for configured providers", async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.server.url}/auth/login`);
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(await page.getByRole("button", { name: /Continue with/ }).count()).toBe(0);
    await page.close();
  });

  it("shows the server's error for a wrong password and stays on the login page", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, product.server.admin.email, "not the password");
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Incorrect username or password/);
    expect(new URL(page.url()).pathname).toBe("/auth/login");
    await page.close();
  });

  it("signs out to the login page and keeps signed-in visitors away from it", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
    await page.waitForURL(/\/home$/);
    await page.goto(`${product.server.url}/auth/login`);
    await page.waitForURL(/\/home$/);
    await signOut(page);
    await page.waitForURL(/\/auth\/login$/);
    const stored = await page.evaluate(() => [
      localStorage.getItem("access_token"),
      localStorage.getItem("last_workspace"),
    ]);
    expect(stored).toEqual([null, null]);
    await page.close();
  });
});
