import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { signIn } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

// The failed crawl below reads a site on loopback, which the product only reaches when allowed.
const product = useProduct({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });
let page: Page;
let assistantId = "";
/** A site that is down: its pages answer 503 (its robots.txt is absent, so crawling is allowed). */
let downSite: Server;
let downSiteUrl = "";
const HOURS = "# Hours\n\nThe museum opens at ten and closes at six.";

beforeAll(async () => {
  downSite = createServer((request, response) => {
    response.writeHead(request.url === "/robots.txt" ? 404 : 503, { "content-type": "text/plain" });
    response.end("Down for maintenance");
  });
  await new Promise<void>((resolve) => downSite.listen(0, "127.0.0.1", resolve));
  downSiteUrl = `http://127.0.0.1:${(downSite.address() as AddressInfo).port}/help`;
  const token = await apiLogin(product.server.url, product.server.admin.email, product.server.admin.password);
  const created = await apiCall<{ id: string }>(product.server.url, token, "POST", "/agents", { name: "Museum guide" });
  assistantId = created.id;
  page = await product.browser.newPage();
  await signIn(page, product.server.url, product.server.admin.email, product.server.admin.password);
  await page.waitForURL((url) => url.pathname === "/home");
  await page.goto(`${product.server.url}/knowledge-base`);
});
afterAll(async () => {
  await page?.close();
  await new Promise((resolve) => downSite?.close(resolve));
});

describe("knowledge base page", () => {
  it("uploads two files, links one, answers a question from it, and deletes", async () => {
    await page.getByRole("heading", { name: "Knowledge base", level: 1 }).waitFor();
    await page.getByText("No documents yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Two files at once, as a drop or the picker gives them.
    await page.getByLabel("Choose files").setInputFiles([
      {
        name: "hours.md",
        mimeType: "text/markdown",
        buffer: Buffer.from(HOURS),
      },
      { name: "tickets.txt", mimeType: "text/plain", buffer: Buffer.from("Tickets cost twelve euros for adults.") },
    ]);
    await page.getByText("Document uploaded: hours.md").waitFor();
    const hours = page.getByRole("row", { name: /hours\.md/ });
    const tickets = page.getByRole("row", { name: /tickets\.txt/ });
    await hours.getByText("Ready").waitFor({ timeout: 20_000 });
    await tickets.getByText("Ready").waitFor({ timeout: 20_000 });
    await hours.getByRole("cell", { name: "1", exact: true }).waitFor();
    // Sizes read with the plural the number takes, not "96 byte".
    await hours.getByRole("cell", { name: `${Buffer.byteLength(HOURS)} bytes`, exact: true }).waitFor();

    await page.getByRole("button", { name: "Link hours.md to assistants" }).click();
    const dialog = page.getByRole("dialog", { name: "Assistants that use hours.md" });
    await dialog.getByRole("checkbox", { name: "Museum guide" }).check();
    await page.getByText("Document linked").waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    await hours.getByText("Museum guide").waitFor();

    await page.getByRole("textbox", { name: "Question" }).fill("When does the museum open?");
    await page.getByRole("combobox", { name: "Search as" }).click();
    await page.getByRole("option", { name: "Museum guide" }).click();
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    const results = page.getByRole("list", { name: "Retrieved passages" });
    await results.getByText("The museum opens at ten and closes at six.").waitFor();
    expect(await results.getByText(/twelve euros/).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Delete tickets.txt" }).click();
    await page.getByRole("dialog", { name: "Delete this document?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByText("Document deleted").waitFor();
    await tickets.waitFor({ state: "detached" });
  });

  it("shows the linked document in the assistant editor, where it can be unlinked", async () => {
    await page.goto(`${product.server.url}/assistants/${assistantId}?tab=functions`);
    const linked = page.getByRole("list", { name: "Linked documents" });
    await linked.getByText("hours.md").waitFor();
    await page.getByRole("button", { name: "Unlink hours.md" }).click();
    await page.getByText("Document unlinked").waitFor();
    await linked.getByText("hours.md").waitFor({ state: "detached" });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("says why a crawl failed: the site could not be read, and what it answered", async () => {
    await page.goto(`${product.server.url}/knowledge-base`);
    await page.getByRole("button", { name: "Crawl a website" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Crawl a website" });
    await dialog.getByRole("textbox", { name: "Web address" }).fill(downSiteUrl);
    await dialog.getByRole("button", { name: "Start crawl" }).click();
    await page.getByText("Crawl started").waitFor();
    const row = page.getByRole("row", { name: /127\.0\.0\.1/ });
    await row.getByText("Failed").waitFor({ timeout: 60_000 });
    await row.getByText("The site could not be read.").waitFor();
    // The server's detail names the address and its answer, for whoever runs the site.
    await row.getByText(/answered HTTP 503/).waitFor();
    expect(await row.getByText("fetch failed").count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
