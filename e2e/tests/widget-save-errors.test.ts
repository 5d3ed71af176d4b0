import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiCall } from "../support/api.ts";
import { createAssistant } from "../support/assistants.ts";
import { launchBrowser } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// The call widget editor on a laptop screen: the allowed sites sit below the fold, so a refused save
// must say so where the user is looking (a toast), bring the field that is wrong into view and name
// the problem of each site; two sites typed on one line stay one (refused) site, not two allowed ones.

interface Widget {
  id: string;
  name: string;
  assistant_id: string;
  allowed_origins: string[];
  updated_at: string;
}

let server: RunningServer;
let browser: Browser;
let token: string;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  token = await adminToken(server);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function newWidget(name: string): Promise<Widget> {
  const assistantId = await createAssistant(server, token, { name: `${name} desk` });
  return apiCall<Widget>(server.url, token, "POST", "/call-widgets", { name, assistant_id: assistantId });
}

const widgetNow = (id: string) => apiCall<Widget>(server.url, token, "GET", `/call-widgets/${id}`);

/** The editor of one widget in a signed-in tab at 1280×720 (the API's token in the browser's storage). */
async function openEditor(widget: Widget): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${server.url}/auth/login`);
  await page.evaluate((access) => localStorage.setItem("access_token", access), token);
  await page.goto(`${server.url}/call-widgets/${widget.id}`);
  await page.getByRole("heading", { name: widget.name, level: 1 }).waitFor();
  return page;
}

/** Whether all of the element is inside the window (not below or above the fold). */
const inView = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });

const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("name") ?? null);

describe("saving a call widget that has a problem", () => {
  it("shows a toast, brings the sites into view with each site's own error, saves nothing until fixed", async () => {
    const widget = await newWidget("Bakery");
    const page = await openEditor(widget);
    const sites = page.getByRole("textbox", { name: "Allowed sites" });
    const parsed = page.getByRole("list", { name: "Sites as they will be saved" });

    // Two sites typed on one line, separated by a space, and a good one on the next.
    await sites.fill("https://shop.example.com https://blog.example.com\n  https://docs.example.com  ");
    const items = parsed.getByRole("listitem");
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.nth(0).textContent()).toContain("https://shop.example.com https://blog.example.com");
    expect(await items.nth(0).textContent()).toContain("An origin has no spaces: put each site on its own line");
    expect(await items.nth(1).textContent()).toBe("https://docs.example.com");

    // Back to the top, where Save is: the sites are below the fold.
    await page.evaluate(() => window.scrollTo(0, 0));
    expect(await inView(sites)).toBe(false);
    await page.getByRole("button", { name: "Save" }).click();

    await page.getByText(/^The call widget was not saved: .*An origin has no spaces/).waitFor();
    await expect.poll(() => focusedName(page)).toBe("origins_text");
    await expect.poll(() => inView(sites)).toBe(true);
    expect(await sites.getAttribute("aria-invalid")).toBe("true");
    await page.getByText("Some sites are not exact origins: what is wrong with each is shown below.").waitFor();
    const unchanged = await widgetNow(widget.id);
    expect(unchanged.allowed_origins).toEqual([]);
    expect(unchanged.updated_at).toBe(widget.updated_at);

    // One site per line or comma-separated, spaces around them trimmed: all three are saved.
    await sites.fill("https://shop.example.com\nhttps://blog.example.com, https://Docs.example.com/ ");
    await expect.poll(() => items.count()).toBe(3);
    expect(await items.allTextContents()).toEqual([
      "https://shop.example.com",
      "https://blog.example.com",
      "https://docs.example.com",
    ]);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Call widget saved").waitFor();
    expect((await widgetNow(widget.id)).allowed_origins).toEqual([
      "https://shop.example.com",
      "https://blog.example.com",
      "https://docs.example.com",
    ]);
    await page.close();
  }, 90_000);

  it("shows the server's own message when the server refuses the save", async () => {
    const widget = await newWidget("Florist");
    const other = await createAssistant(server, token, { name: "Evening desk" });
    const page = await openEditor(widget);
    await page.getByRole("combobox", { name: "Assistant" }).click();
    await page.getByRole("option", { name: "Evening desk" }).click();
    // The assistant is deleted elsewhere after the editor listed it: only the server can know.
    await apiCall(server.url, token, "DELETE", `/agents/${other}`);
    await page.getByRole("button", { name: "Save" }).click();

    await page.getByText(/^The call widget was not saved: .*Assistant not found\./).waitFor();
    expect((await widgetNow(widget.id)).assistant_id).toBe(widget.assistant_id);
    await page.close();
  }, 90_000);
});
