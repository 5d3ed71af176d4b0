import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { apiLogin, createUser } from "../support/api.ts";
import { signIn } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();
let member: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  member = await createUser(
    product.server.url,
    await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password),
    "Route Member",
  );
});

async function landsOn(page: Page, from: string, to: RegExp) {
  await page.goto(`${product.server.url}${from}`);
  await page.waitForURL((url) => to.test(url.pathname));
  expect(new URL(page.url()).pathname).toMatch(to);
}

describe("route rules of spec §2 for visitors", () => {
  it("redirects every signed-in route and unknown path to the login page", async () => {
    const page = await product.browser.newPage();
    for (const path of ["/", "/home", "/assistants", "/profile", "/admin", "/no/such/page"])
      await landsOn(page, path, /^\/auth\/login$/);
    await page.close();
  });

  it("sends /auth/signup to login, other /auth paths to /, and shows /auth/404", async () => {
    const page = await product.browser.newPage();
    await landsOn(page, "/auth/signup", /^\/auth\/login$/);
    await landsOn(page, "/auth/whatever", /^\/auth\/login$/);
    await page.goto(`${product.server.url}/auth/404`);
    await page.getByRole("heading", { name: "Page not found" }).waitFor();
    await page.goto(`${product.server.url}/reset-password`);
    await page.getByRole("heading", { name: "Reset your password" }).waitFor();
    await page.close();
  });
});

describe("route rules for signed-in users", () => {
  it("keeps signed-in users off visitor pages and sends unknown paths home", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, member.username, member.password);
    await page.waitForURL(/\/home$/);
    for (const path of ["/auth/login", "/auth/signup-sso", "/reset-password", "/", "/no/such/page"])
      await landsOn(page, path, /^\/home$/);
    await landsOn(page, "/assistants", /^\/assistants$/);
    await page.getByRole("heading", { name: "Assistants", exact: true }).waitFor();
    await page.close();
  });

  it("bounces a non-superuser from every admin page", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, member.username, member.password);
    await page.waitForURL(/\/home$/);
    for (const path of ["/admin", "/admin/users", "/admin/tiers", "/admin/quotas"])
      await landsOn(page, path, /^\/home$/);
    expect(await page.getByRole("link", { name: "Users" }).count()).toBe(0);
    await page.close();
  });

  it("lets a superuser into admin pages and sends unknown admin paths to /admin", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
    await page.waitForURL(/\/home$/);
    await landsOn(page, "/admin/users", /^\/admin\/users$/);
    await landsOn(page, "/admin/nothing-here", /^\/admin$/);
    await page.getByRole("heading", { name: "Admin dashboard" }).waitFor();
    await page.close();
  });

  it("keeps the session when a page is left while it is still restoring it", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, member.username, member.password);
    await page.waitForURL(/\/home$/);
    // Hold the restore's user request so the next navigation is sure to cut it off.
    await page.route("**/api/v1/users/me", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue().catch(() => undefined);
    });
    await page.goto(`${product.server.url}/profile`, { waitUntil: "commit" });
    await page.waitForTimeout(300);
    await page.unroute("**/api/v1/users/me");
    await landsOn(page, "/home", /^\/home$/);
    await page.getByRole("heading", { name: /^Welcome/ }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/home");
    await page.close();
  });
});
