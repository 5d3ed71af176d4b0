import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin, createUser } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signIn } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";

let server: RunningServer;
let browser: Browser;
let adminToken: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  adminToken = await apiLogin(server.url, server.admin.email, server.admin.password);
  for (let i = 1; i <= 11; i++) await createUser(server.url, adminToken, `Paged Person ${String(i).padStart(2, "0")}`);
  await apiCall(server.url, adminToken, "POST", "/admin/tiers", {
    name: "Growth",
    max_assistants: 10,
    minutes_per_month: 5000,
    concurrent_calls: 8,
    max_workspaces: 3,
    price: 99,
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("admin users page", () => {
  it("pages ten users at a time and searches", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, server.admin.email, server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.goto(`${server.url}/admin/users`);
    await page.getByText("1–10 of 12").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(10);
    await page.getByRole("button", { name: "Go to next page" }).click();
    await page.getByText("11–12 of 12").waitFor();
    expect(await page.locator("tbody tr").count()).toBe(2);
    await page.getByRole("searchbox", { name: "Search by name or email" }).fill("Paged Person 07");
    await page.getByText("1–1 of 1").waitFor();
    await page.close();
  });

  it("assigns a tier with its defaults and removes it", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, server.admin.email, server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.goto(`${server.url}/admin/users`);
    await page.getByRole("searchbox", { name: "Search by name or email" }).fill("Paged Person 03");
    await page.getByText("1–1 of 1").waitFor();
    await page.getByRole("button", { name: "Actions for Paged Person 03" }).click();
    await page.getByRole("menuitem", { name: "Assign tier Growth with its defaults" }).click();
    await page.getByText("Tier Growth assigned").waitFor();
    await page.getByRole("cell", { name: "Growth" }).waitFor();
    const users = await apiCall<{ id: string; email: string }[]>(server.url, adminToken, "GET", "/users");
    const person = users.find((u) => u.email === "paged.person.03@e2e.test");
    const quota = await apiCall<{ concurrent_calls: number }>(
      server.url,
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
    const page = await browser.newPage();
    await page.goto(`${server.url}/auth/login`);
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await signIn(page, null, server.admin.email, server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.getByRole("heading", { name: /Welcome/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.url}/admin/users`);
    await page.getByText("1–10 of 12").waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });
});
