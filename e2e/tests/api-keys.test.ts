import { createHmac } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signIn } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// API keys and webhooks in the browser: create a key and copy its secret (shown once), use it from
// this test as a program would, revoke it; add a webhook endpoint pointing at a local receiver, send
// a test event, verify its signature and see it in the delivery log.

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let context: BrowserContext;
let page: Page;
let receiver: Server;
let receiverUrl = "";
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/parley`;
  [server, browser] = await Promise.all([
    startServer({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", SIP_PORT: "off" }),
    launchBrowser(),
  ]);
  context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  page = await context.newPage();
  // Two busy cores run this suite beside builds: waits are for conditions, with room to spare.
  page.setDefaultTimeout(60_000);
  await signIn(page, server.url, server.admin.email, server.admin.password);
  await page.waitForURL((url) => url.pathname === "/home");
}, 120_000);

afterAll(async () => {
  await page?.close();
  await context?.close();
  await browser?.close();
  await server?.stop();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
});

const asKey = (secret: string, path: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api/v1${path}`, {
    ...init,
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", ...init.headers },
  });

describe("API keys page", () => {
  let secret = "";

  it("starts empty, creates a key and shows its secret once, with a copy button", async () => {
    await page.goto(`${server.url}/api-keys`);
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
    await page.getByText("No API keys yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New API key" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New API key" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Reporting script");
    // Read and write are ticked by default: this script only reads.
    await dialog.getByRole("checkbox", { name: /^Write/ }).uncheck();
    await dialog.getByRole("button", { name: "Create key" }).click();

    const shown = page.getByRole("dialog", { name: "Your new key: Reporting script" });
    await shown.getByText("It is shown only once").waitFor();
    secret = await shown.getByRole("textbox", { name: "Secret key" }).inputValue();
    expect(secret).toMatch(/^pk_live_[A-Za-z0-9_-]{43}$/);
    await shown.getByRole("button", { name: "Copy key" }).click();
    await page.getByText("Key copied to the clipboard").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await seriousViolations(page)).toEqual([]);
    await shown.getByRole("button", { name: "Done" }).click();
    await shown.waitFor({ state: "detached" });

    // Listed by its visible prefix; the secret itself is nowhere on the page any more.
    const row = page.getByRole("row", { name: /Reporting script/ });
    await row.getByText(`${secret.slice(0, 14)}…`).waitFor();
    await row.getByText("Read", { exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.getByRole("row", { name: /Reporting script/ }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it("lets a program use the key within its scopes, and shows when it was last used", async () => {
    const list = await asKey(secret, "/agents");
    expect(list.status).toBe(200);
    const write = await asKey(secret, "/agents", { method: "POST", body: JSON.stringify({ name: "Nope" }) });
    expect(write.status).toBe(403);
    expect((await asKey(secret, "/users/me")).status).toBe(403);

    await expect
      .poll(
        async () => {
          await page.reload();
          await page.getByRole("row", { name: /Reporting script/ }).waitFor();
          return page
            .getByRole("row", { name: /Reporting script/ })
            .getByText("127.0.0.1")
            .count();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBe(1);
  });

  it("revokes the key after confirming: the program is refused at once", async () => {
    await page.getByRole("button", { name: "Revoke Reporting script" }).click();
    const confirm = page.getByRole("dialog", { name: "Revoke Reporting script?" });
    await confirm.getByText("stop working at once").waitFor();
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await page.getByText("Reporting script revoked").waitFor();
    await page
      .getByRole("row", { name: /Reporting script/ })
      .getByText("Revoked")
      .waitFor();
    expect((await asKey(secret, "/agents")).status).toBe(401);
  });
});

describe("webhooks on the integrations page", () => {
  it("adds an endpoint, sends a signed test event, and shows it in the delivery log", async () => {
    await page.goto(`${server.url}/integrations`);
    await page.getByRole("heading", { name: "Webhooks", level: 2 }).waitFor();
    await page.getByText("No webhook endpoints").waitFor();

    await page.getByRole("button", { name: "Add endpoint" }).first().click();
    const dialog = page.getByRole("dialog", { name: "Add webhook endpoint" });
    await dialog.getByRole("textbox", { name: "Endpoint URL" }).fill(receiverUrl);
    await dialog.getByRole("checkbox", { name: /^call\.started/ }).check();
    await dialog.getByRole("button", { name: "Save" }).click();
    await page.getByText("Endpoint added").waitFor();

    // The new endpoint's signing secret is shown at once.
    const secretDialog = page.getByRole("dialog", { name: "Signing secret" });
    const signingSecret = await secretDialog.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(signingSecret).toMatch(/^whsec_/);
    expect(await seriousViolations(page)).toEqual([]);
    await secretDialog.getByRole("button", { name: "Done" }).click();

    await page.getByRole("button", { name: `Send a test event to ${receiverUrl}` }).click();
    await page.getByText("Test event queued").waitFor();
    await expect.poll(() => received.length, { timeout: 60_000 }).toBe(1);
    const hit = received[0] as Received;
    const timestamp = String(hit.headers["x-parley-timestamp"]);
    const expected = createHmac("sha256", signingSecret).update(`${timestamp}.${hit.body}`).digest("hex");
    expect(hit.headers["x-parley-signature"]).toBe(`sha256=${expected}`);
    expect(JSON.parse(hit.body).type).toBe("test");

    // By keyboard, as the row's actions are meant to be reachable (the notice may sit over the last row).
    await page.getByRole("button", { name: `Delivery log of ${receiverUrl}` }).focus();
    await page.keyboard.press("Enter");
    const log = page.getByRole("dialog", { name: /Delivery log/ });
    await log.getByText("Succeeded").waitFor();
    await log.getByText("204").first().waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await log.getByRole("button", { name: "Resend test" }).click();
    await page.getByText("Queued to be sent again").waitFor();
    await expect.poll(() => received.length, { timeout: 60_000 }).toBe(2);
    await log.getByRole("button", { name: "Done" }).click();
    // Each step waits up to a minute on a busy machine; the whole flow gets room for several.
  }, 240_000);
});
