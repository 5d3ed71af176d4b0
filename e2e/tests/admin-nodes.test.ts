import { AdminNodesResponse, LivenessResponse } from "@parley/contract";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiCall, createUser } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { signInToHome } from "../support/browser.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useProduct } from "../support/product.ts";

/**
 * Issue 28 item 5: Admin → Nodes lists the server processes serving the database, from their
 * heartbeats. The product runs as one node here: it shows as Ready with its id and version, on a
 * desktop, and on a 390 px phone in Arabic (right to left) and dark mode. Other users are sent home.
 */

const product = useProduct();
const PHONE = { width: 390, height: 844 };
let node: { id: string; version: string };

beforeAll(async () => {
  const live = LivenessResponse.parse(await (await fetch(`${product.server.url}/api/v1/health/live`)).json());
  const token = await adminToken(product.server);
  const listed = AdminNodesResponse.parse(await apiCall(product.server.url, token, "GET", "/admin/nodes"));
  const own = listed.nodes.find((n) => n.id === live.node);
  if (!own) throw new Error(`the node list has no row for ${live.node}: ${JSON.stringify(listed)}`);
  node = { id: own.id, version: own.version };
});

async function openSignedIn(viewport?: { width: number; height: number }): Promise<Page> {
  const context = await product.browser.newContext(viewport ? { viewport } : {});
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  await signInToHome(page, product.server);
  return page;
}

describe("Admin → Nodes", () => {
  it("lists the running node as Ready with its id, version and a live heartbeat", async () => {
    const page = await openSignedIn();
    await page.getByRole("navigation", { name: "Main navigation" }).getByRole("link", { name: "Nodes" }).click();
    await page.waitForURL((url) => url.pathname === "/admin/nodes");
    await page.getByRole("heading", { name: "Nodes", level: 1 }).waitFor();
    const row = page.getByRole("row", { name: new RegExp(node.id) });
    await row.waitFor();
    await row.getByText("Ready", { exact: true }).waitFor();
    await row.getByText(node.version, { exact: true }).waitFor();
    // The heartbeat says how long ago, with the moment itself as its title.
    const heartbeat = row.locator("time");
    expect(await heartbeat.innerText()).toMatch(/now|seconds? ago/);
    expect(await heartbeat.getAttribute("title")).toBeTruthy();
    // The table scrolls in its own box, which the keyboard reaches.
    await page.getByRole("region", { name: "Nodes" }).focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Nodes");
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("fits a 390 px phone in Arabic, right to left and dark mode, every text translated", async () => {
    const page = await openSignedIn(PHONE);
    await storeArabicDarkMode(page);
    await page.goto(`${product.server.url}/admin/nodes`);
    await page.getByRole("heading", { name: "العُقد", level: 1 }).waitFor();
    const row = page.getByRole("row", { name: new RegExp(node.id) });
    await row.getByText("جاهزة", { exact: true }).waitFor();
    const look = await page.evaluate(() => ({
      dir: document.documentElement.dir,
      background: getComputedStyle(document.body).backgroundColor,
      // Nothing off-screen: the page itself never scrolls sideways; the table scrolls in its box.
      overflow: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(look).toEqual({ dir: "rtl", background: "rgb(18, 18, 18)", overflow: 0 });
    const region = page.getByRole("region", { name: "العُقد" });
    const box = await region.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true);
    const text = await page.locator("main").innerText();
    expect(text).not.toMatch(/\bnodes\.[a-zA-Z]/);
    expect(text).not.toMatch(/\bnav\.[a-zA-Z]/);
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it("is not there for a user who is not an administrator", async () => {
    const token = await adminToken(product.server);
    const member = await createUser(product.server.url, token, "Node Watcher");
    const context = await product.browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInToHome(page, product.server, { username: member.email, password: member.password });
    expect(await page.getByRole("link", { name: "Nodes" }).count()).toBe(0);
    await page.goto(`${product.server.url}/admin/nodes`);
    await page.waitForURL((url) => url.pathname === "/home");
    await context.close();
  });
});
