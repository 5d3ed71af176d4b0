import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { adminToken, apiCall } from "../support/api.ts";
import { signIn } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

const product = useProduct();

/** Records every Content-Security-Policy violation the page reports, from its first script on. */
async function watchCsp(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { cspViolations: seen });
    document.addEventListener("securitypolicyviolation", (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

describe("the web app's assets (issue 18)", () => {
  it("sends the sign-in page's scripts compressed, with its code hinted in its HTML, in the self-hosted font", async () => {
    const page = await product.browser.newPage();
    const scripts: { url: string; encoding: string | undefined }[] = [];
    page.on("response", (response) => {
      if (response.url().endsWith(".js"))
        scripts.push({ url: response.url(), encoding: response.headers()["content-encoding"] });
    });
    const html = await page.goto(`${product.server.url}/auth/login`);
    expect(await html?.text()).toMatch(/rel="modulepreload"[^>]*login-page-/);
    // The field is in the pre-rendered HTML at once; the scripts are fetched after the first paint.
    await page.getByLabel("Username or email").waitFor();
    await page.waitForLoadState("networkidle");
    expect(scripts.length).toBeGreaterThan(5);
    for (const script of scripts) expect(["br", "gzip"], script.url).toContain(script.encoding);
    const inter = await page.evaluate(async () => {
      await document.fonts.ready;
      let loaded = false;
      document.fonts.forEach((font) => {
        if (font.family.replace(/"/g, "") === "Inter" && font.status === "loaded") loaded = true;
      });
      return loaded;
    });
    expect(inter).toBe(true);
    await page.close();
  });

  it("sends every page of a workflow the builder's HTML, its code hinted, its outline drawn (issue 35)", async () => {
    const page = await product.browser.newPage();
    const token = await adminToken(product.server);
    const { id } = await apiCall<{ id: string }>(product.server.url, token, "POST", "/workflows", { name: "Hints" });
    for (const path of [`/workflows/${id}`, "/workflows/00000000-0000-4000-8000-000000000000"]) {
      const html = await (await fetch(`${product.server.url}${path}`)).text();
      expect(html, path).toMatch(/rel="modulepreload"[^>]*workflow-builder-page-/);
      expect(html, path).toContain('data-prerendered="/workflows/:workflowId"');
      expect(html, path).toContain("Drag onto the canvas, or press to add in the middle.");
    }
    // A path deeper than a workflow's is not the builder's: it gets the plain app HTML.
    const other = await (await fetch(`${product.server.url}/workflows/${id}/more`)).text();
    expect(other).not.toContain("data-prerendered");
    await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.goto(`${product.server.url}/workflows/${id}`);
    await page.getByRole("heading", { name: "Hints", level: 1 }).waitFor();
    await page.close();
  });

  it("breaks no rule of the CSP, signed out or in (zod compiles no parser with eval)", async () => {
    const page = await product.browser.newPage();
    const violations = await watchCsp(page);
    await page.goto(`${product.server.url}/auth/login`);
    await page.getByLabel("Username or email").waitFor();
    expect(await violations()).toEqual([]);
    await signIn(page, null, product.server.admin.email, product.server.admin.password);
    await page.waitForURL((url) => url.pathname === "/home");
    await page.goto(`${product.server.url}/assistants`);
    await page.getByRole("heading", { name: "Assistants" }).first().waitFor();
    expect(await violations()).toEqual([]);
    await page.close();
  });
});
