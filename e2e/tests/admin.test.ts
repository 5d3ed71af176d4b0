import { beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin, createUser } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { signIn } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password);
  for (let i = 1; i <= 11; i++)
    await createUser(product.server.url, adminToken, `Paged Person ${String(i).padStart(2, "0")}`);
  await apiCall(product.server.url, adminToken, "POST", "/admin/tiers", {
    name: "Growth",
    max_assistants: 10,
    minutes_per_month: 5000,
    concurrent_calls: 8,
    max_workspaces: 3,
    price: 99,
  });
});

describe("admin users page", () => {
  it("pages ten users at a time and searches", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.goto(`${product.server.url}/admin/users`);
    await page.getByText("1–10 of 12").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(10);
    await page.getByRole("button", { name: "Go to next page" }).click();
    await page.getByText("11–12 of 12").waitFor();
    // Newest first: the second page holds the two oldest accounts.
    await page.getByText("Paged Person 01").waitFor();
    await page.locator("tbody tr").nth(2).waitFor({ state: "detached" });
    expect(await page.locator("tbody tr").count()).toBe(2);
    await page.getByRole("searchbox", { name: "Search by name or email" }).fill("Paged Person 07");
    await page.getByText("1–1 of 1").waitFor();
    await page.close();
  });

  it("assigns a tier with its defaults and removes it", async () => {
    const page = await product.browser.newPage();
    await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.goto(`${product.server.url}/admin/users`);
    await page.getByRole("searchbox", { name: "Search by name or email" }).fill("Paged Person 03");
    await page.getByText("1–1 of 1").waitFor();
    await page.getByRole("button", { name: "Actions for Paged Person 03" }).click();
    await page.getByRole("menuitem", { name: "Assign tier Growth with its defaults" }).click();
    await page.getByText("Tier Growth assigned").waitFor();
    await page.getByRole("cell", { name: "Growth" }).waitFor();
    const { data: users } = await apiCall<{ data: { id: string; email: string }[] }>(
      product.server.url,
      adminToken,
      "GET",
      "/users?search=paged.person.03",
    );
    const person = users.find((u) => u.email === "paged.person.03@e2e.test");
    const quota = await apiCall<{ concurrent_calls: number }>(
      product.server.url,
      adminToken,
      "GET",
      `/admin/enterprise-quotas/${person?.id}`,
    );
    expect(quota.concurrent_calls).toBe(8);
    await page.getByRole("button", { name: "Actions for Paged Person 03" }).click();
    await page.getByRole("menuitem", { name: "Remove tier" }).click();
    await page.getByText("Tier removed").waitFor();
    await page.getByRole("cell", { name: "No tier" }).waitFor();
    await page.close();
  });
});

describe("accessibility (axe-core)", () => {
  it("finds no serious or critical violation on the login, home and admin users pages", async () => {
    const page = await product.browser.newPage();
    await page.goto(`${product.server.url}/auth/login`);
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await signIn(page, null, product.server.admin.email, product.server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.getByRole("heading", { name: /Welcome/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${product.server.url}/admin/users`);
    await page.getByText("1–10 of 12").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
