import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiCall } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowserWithMicrophone } from "../support/browser.ts";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { expectHeardReply, startsOneOf } from "../support/transcript.ts";

// A customer's website (another local origin) embeds the widget's one script tag; a visitor talks to
// the assistant through Chromium's fake microphone (a WAV synthesized here), the offline recogniser
// hears it, a scripted model answers and the offline voice speaks. A second site, not on the
// widget's list, gets no widget.

interface Site {
  origin: string;
  /** The page's HTML, set by the test once it has the snippet. */
  html: string;
  close(): Promise<void>;
}

/** A website on 127.0.0.1 (its own port: its own origin) serving one page. */
async function startSite(): Promise<Site> {
  const site = { html: "" } as Site;
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(site.html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  site.close = () => new Promise((resolve) => server.close(() => resolve()));
  return site;
}

/** A shop's page whose own styles try hard to reach the widget's button (shadow DOM keeps them out). */
const shopPage = (snippet: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Corner shop</title>
<style>button { background: rgb(255, 0, 255) !important; font-size: 40px !important; } * { font-family: serif; letter-spacing: 3px; }</style>
</head><body><main><h1>Corner shop</h1><p>Fresh bread every morning.</p></main>
${snippet}
</body></html>`;

let llm: ScriptedLlm;
const replies = ["We open at nine in the morning.", "You are welcome. Goodbye!"];

const startsAReply = startsOneOf(replies);
let server: RunningServer;
let browser: Browser;
let shop: Site;
let stranger: Site;
let token: string;
let snippet = "";

beforeAll(async () => {
  llm = await startScriptedLlm(replies);
  [server, browser, shop, stranger] = await Promise.all([
    startServer({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" }),
    launchBrowserWithMicrophone("What time do you open tomorrow?"),
    startSite(),
    startSite(),
  ]);
  token = await adminToken(server);
  const assistantId = await createOfflineAssistant(server, token, llm.baseUrl, {
    name: "Front desk",
    first_message: "Hello, this is the front desk. How can I help?",
    system_prompt: "You answer questions about opening hours.",
  });
  // The sites' widget, arranged through the API so the call tests do not hang on the editor's test.
  const widget = await apiCall<{ id: string; public_key: string; appearance: Record<string, unknown> }>(
    server.url,
    token,
    "POST",
    "/call-widgets",
    { name: "Shop", assistant_id: assistantId, allowed_origins: [shop.origin] },
  );
  await apiCall(server.url, token, "PATCH", `/call-widgets/${widget.id}`, {
    appearance: { ...widget.appearance, button_label: "Call the shop" },
  });
  snippet = `<script src="${server.url}/api/v1/widget/embed.js" data-key="${widget.public_key}" async></script>`;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await llm?.stop();
  await shop?.close();
  await stranger?.close();
});

/** A signed-in tab: the API's token in the browser's storage (signing in itself is tested elsewhere). */
async function signedInPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${server.url}/auth/login`);
  await page.evaluate((access) => localStorage.setItem("access_token", access), token);
  return page;
}

describe("call widgets", () => {
  it("creates a widget, allows a site, changes its button and shows the snippet and a live preview", async () => {
    const page = await signedInPage();
    await page.goto(`${server.url}/call-widgets`);
    await page.getByRole("heading", { name: "Call widgets", level: 1 }).waitFor();
    await page.getByRole("table", { name: "Call widgets" }).getByRole("link", { name: "Shop", exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New widget" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New call widget" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Shop widget");
    await dialog.getByRole("combobox", { name: "Assistant" }).click();
    await page.getByRole("option", { name: "Front desk" }).click();
    await dialog.getByRole("button", { name: "New widget" }).click();
    await page.getByText("Call widget created").waitFor();
    await page.getByRole("heading", { name: "Shop widget", level: 1 }).waitFor();

    await page.getByRole("textbox", { name: "Allowed sites" }).fill(`${shop.origin}/checkout`);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText(/scheme and host, no path/).waitFor();
    await page.getByRole("textbox", { name: "Allowed sites" }).fill(shop.origin);
    await page.getByRole("textbox", { name: "Button text" }).fill("Call the shop");
    // The preview draws the unsaved label with the real embed script.
    const preview = page.frameLocator('[data-testid="widget-preview"]');
    await preview.getByRole("button", { name: "Call the shop" }).waitFor({ timeout: 20_000 });
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Call widget saved").waitFor();

    const shown = (await page.getByTestId("widget-snippet").textContent()) ?? "";
    expect(shown).toMatch(
      new RegExp(`^<script src="${server.url}/api/v1/widget/embed\\.js" data-key="pw_[\\w-]+" async></script>$`),
    );
    await page.close();
  }, 120_000);

  it("runs a voice call from the shop's site and logs it on the widget channel with the page origin", async () => {
    shop.html = shopPage(snippet);
    const page = await browser.newPage();
    await page.goto(shop.origin);
    const launcher = page.getByRole("button", { name: "Call the shop" });
    await launcher.waitFor({ timeout: 20_000 });
    // The host page's !important rules do not reach into the widget's shadow root.
    const look = await launcher.evaluate((button) => {
      const style = getComputedStyle(button);
      return { background: style.backgroundColor, size: style.fontSize };
    });
    expect(look.background).not.toBe("rgb(255, 0, 255)");
    expect(look.size).not.toBe("40px");

    await launcher.click();
    const panel = page.getByRole("dialog", { name: "Voice assistant" });
    await panel.getByRole("button", { name: "Start call" }).click();
    const widget = page.locator("parley-call-widget");
    await page.waitForSelector('parley-call-widget[data-status="connected"]', { state: "attached", timeout: 30_000 });

    const transcript = panel.getByRole("log", { name: "Conversation" });
    // The assistant answers and the visitor hears it: its audio played in the page.
    await expectHeardReply(transcript, startsAReply, widget, { assistant: 30_000, user: 45_000 });
    expect(await seriousViolations(page)).toEqual([]);

    await panel.getByRole("button", { name: "Mute" }).click();
    await panel.getByRole("button", { name: "Unmute" }).waitFor();
    await panel.getByRole("button", { name: "End call" }).click();
    await page.waitForSelector('parley-call-widget[data-status="ended"]', { state: "attached" });
    await panel.getByText("Call ended.").waitFor();

    const logs = await apiCall<{ data: { id: string; status: string; channel: string; origin: string | null }[] }>(
      server.url,
      token,
      "GET",
      "/call-logs?channel=widget",
    );
    expect(logs.data).toHaveLength(1);
    expect(logs.data[0]).toMatchObject({ channel: "widget", origin: shop.origin });
    await expect
      .poll(
        async () =>
          (await apiCall<{ status: string }>(server.url, token, "GET", `/call-logs/${logs.data[0]?.id}`)).status,
        {
          timeout: 15_000,
        },
      )
      .toBe("completed");
    const log = await apiCall<{ transcript: { role: string; text: string }[] }>(
      server.url,
      token,
      "GET",
      `/call-logs/${logs.data[0]?.id}`,
    );
    expect(log.transcript.some((e) => e.role === "user" && e.text.length > 0)).toBe(true);
    // The log keeps what the caller heard of each reply: the looping test microphone may barge in
    // mid-reply ("We open"), so a logged line is the start of one of the model's scripted replies.
    const heard = log.transcript.filter((e) => e.role === "assistant" && e.text.trim().length > 0);
    expect(heard.some((e) => replies.some((reply) => reply.startsWith(e.text.trim())))).toBe(true);
    await page.close();

    // The call logs page lists it under the Widget channel.
    const admin = await signedInPage();
    await admin.goto(`${server.url}/call-logs?channel=widget`);
    const row = admin.getByRole("row", { name: /Open the call with Front desk/ }).first();
    await row.waitFor();
    await row.getByText("Widget").waitFor();
    await admin.close();
  }, 180_000);

  it("refuses a site that is not on the widget's list", async () => {
    stranger.html = shopPage(snippet);
    const page = await browser.newPage();
    const warnings: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    await page.goto(stranger.origin);
    await expect.poll(() => warnings.join("\n"), { timeout: 20_000 }).toMatch(/not allowed to use this widget/);
    expect(await page.locator("parley-call-widget").count()).toBe(0);

    // Starting a call by hand from that page is refused by the server (and the browser hides the answer).
    const key = /data-key="([^"]+)"/.exec(snippet)?.[1] ?? "";
    const attempt = await page.evaluate(
      async ([url]) => {
        try {
          const res = await fetch(url as string, { method: "POST" });
          return `status ${res.status}`;
        } catch {
          return "blocked";
        }
      },
      [`${server.url}/api/v1/widget/${key}/calls`],
    );
    expect(attempt).toBe("blocked");
    const direct = await fetch(`${server.url}/api/v1/widget/${key}/calls`, {
      method: "POST",
      headers: { origin: stranger.origin },
    });
    expect(direct.status).toBe(403);
    expect(((await direct.json()) as { detail: string }).detail).toBe(
      "This website is not allowed to use this call widget.",
    );
    // Nothing was started for the stranger: still the one widget call.
    const logs = await apiCall<{ data: unknown[] }>(server.url, token, "GET", "/call-logs?channel=widget");
    expect(logs.data).toHaveLength(1);
    await page.close();
  }, 60_000);
});
