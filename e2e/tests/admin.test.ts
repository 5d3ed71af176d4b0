import { beforeAll, describe, expect, it } from "vitest";
import { apiLogin, createUser } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { signIn } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();
let adminToken: string;

beforeAll(async () => {
  adminToken = await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password);
  for (let i = 1; i <= 11; i++)
    await createUser(product.server.url, adminToken, `Paged Person ${String(i).padStart(2, "0")}`);
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
