import { describe, expect, it } from "vitest";
import { signInToHome, signOut } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();

// A well-formed token whose expiry has passed: the app must not use it, and must refresh instead.
const EXPIRED =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpZCI6IngiLCJ1c2VybmFtZSI6IngiLCJleHAiOjEwMDAwMDAwMDB9.c2lnbmF0dXJl";

describe("sessions in the browser", () => {
  it("replaces an expired access token through the refresh cookie without bothering the user", async () => {
    const context = await product.browser.newContext();
    const page = await context.newPage();
    await signInToHome(page, product.server);
    await page.evaluate((token) => localStorage.setItem("access_token", token), EXPIRED);
    await page.goto(`${product.server.url}/profile`);
    await page.getByRole("heading", { name: "Profile" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/profile");
    expect(await page.evaluate(() => localStorage.getItem("access_token"))).not.toBe(EXPIRED);
    await context.close();
  });

  it("lands on the login page when the refresh fails", async () => {
    const context = await product.browser.newContext();
    const page = await context.newPage();
    await signInToHome(page, product.server);
    await context.clearCookies();
    await page.evaluate((token) => localStorage.setItem("access_token", token), EXPIRED);
    await page.goto(`${product.server.url}/profile`);
    await page.waitForURL((url) => url.pathname === "/auth/login");
    expect(await page.evaluate(() => localStorage.getItem("access_token"))).toBeNull();
    await context.close();
  });

  it("rebuilds a tab when another tab changes the stored access token", async () => {
    const context = await product.browser.newContext();
    const first = await context.newPage();
    await signInToHome(first, product.server);
    const second = await context.newPage();
    await second.goto(`${product.server.url}/home`);
    await second.getByRole("heading", { name: /Welcome/ }).waitFor();
    await signOut(second);
    await second.waitForURL((url) => url.pathname === "/auth/login");
    // The first tab hears the storage change, rebuilds, finds no session and goes to login.
    await first.waitForURL((url) => url.pathname === "/auth/login");
    await context.close();
  });
});
