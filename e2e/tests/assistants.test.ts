import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiCall } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { openSignedInAt } from "../support/browser.ts";
import { type EverythingServer, startEverythingServer } from "../support/mcp-everything.ts";
import { useProduct } from "../support/product.ts";

// The tool server of this test runs on loopback, which the product only reaches when allowed.
const product = useProduct({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" });

/** The reference MCP server, run locally over Streamable HTTP. */
let everything: EverythingServer | undefined;

beforeAll(async () => {
  everything = await startEverythingServer();
});
afterAll(() => {
  everything?.stop();
});

const openSignedIn = (pathname: string) => openSignedInAt(product.browser, product.server, pathname);

const openTab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true }).click();

/** A select's accessible name is its label followed by the shown value, so match the label's start. */
const select = (page: Page, label: string) =>
  page.getByRole("combobox", { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) });

async function choose(page: Page, combobox: string, option: string) {
  await select(page, combobox).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

describe("assistants in the browser", () => {
  it("creates from a template, edits every area, keeps it after a reload, and deletes it", async () => {
    const token = await adminToken(product.server);
    await apiCall(product.server.url, token, "POST", "/functions", {
      name: "lookup_order",
      description: "Looks up an order by its number",
      parameters: { type: "object", properties: {} },
      url: "http://127.0.0.1:9/hook",
      method: "POST",
    });
    await apiCall(product.server.url, token, "POST", "/mcp-servers", { name: "Everything", url: everything?.url });

    const page = await openSignedIn("/assistants");
    await page.getByRole("heading", { name: "No assistants yet" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Create from the template gallery.
    await page.getByRole("button", { name: "Create from template" }).first().click();
    const gallery = page.getByRole("dialog");
    await gallery.getByRole("listitem").filter({ hasText: "Customer support" }).getByRole("button").click();
    await gallery.getByLabel("Name of the new assistant").fill("E2E Support Line");
    await gallery.getByRole("button", { name: "Create assistant" }).click();
    await page.getByText("Assistant created from template").waitFor();
    await page.getByRole("heading", { level: 1, name: "E2E Support Line" }).waitFor();
    await page.waitForURL(/\/assistants\/[0-9a-f-]{36}/);
    await page
      .getByText(/\/ min/)
      .first()
      .waitFor();

    // A provider change resets the model and its configuration to that provider's defaults.
    const model = page.getByRole("combobox", { name: "Model", exact: true });
    await choose(page, "Language model provider", "Anthropic");
    await expect.poll(() => model.inputValue()).toBe("claude-sonnet-4-5");
    await choose(page, "Language model provider", "Azure OpenAI");
    await expect.poll(() => model.inputValue()).toBe("gpt-4o-mini");
    expect(await page.getByLabel("Deployment").inputValue()).toBe("gpt-4o-mini");
    expect(await page.getByLabel("API version").inputValue()).toBe("2024-10-21");
    expect(await page.getByLabel("Base URL").inputValue()).toBe("");
    await page.getByLabel("Base URL").fill("https://e2e-resource.openai.azure.com");

    // End of turn sits beside interruption sensitivity: three waits in ms and the transcriber's signal.
    const sentenceWait = page.getByRole("spinbutton", { name: "Wait after a finished sentence (ms)" });
    expect(await sentenceWait.inputValue()).toBe("100");
    expect(await page.getByRole("spinbutton", { name: "Wait after an unfinished phrase (ms)" }).inputValue()).toBe(
      "1500",
    );
    expect(await page.getByRole("spinbutton", { name: "Wait after a number (ms)" }).inputValue()).toBe("500");
    await sentenceWait.fill("250");
    await page.getByLabel("End the turn on the transcriber's own signal").uncheck();

    // HIPAA forces recording off.
    await openTab(page, "More settings");
    const recording = page.getByLabel("Record call audio");
    expect(await recording.isChecked()).toBe(true);
    await page.getByLabel("HIPAA compliance").check();
    expect(await recording.isChecked()).toBe(false);
    expect(await recording.isDisabled()).toBe(true);
    await page.getByText("Recording is off because HIPAA compliance is on.").waitFor();
    await page.getByLabel("End-call phrases").fill("talk to you later");
    await page.getByLabel("End-call phrases").press("Enter");

    // Two transfer destinations (the template brings one) and a keypad mapping.
    await openTab(page, "Call transfer & DTMF");
    expect(await page.getByLabel("Destination 1 name").inputValue()).toBe("Support team");
    await page.getByRole("button", { name: "Add destination" }).click();
    await page.getByLabel("Destination 2 name").fill("Billing");
    await page.getByLabel("Destination 2 number").fill("+15555550199");
    await page.getByLabel("Destination 2 transfer message").fill("Connecting you to billing.");
    await page.getByLabel("React to keypad presses").check();
    await page.getByRole("button", { name: "Add key" }).click();
    await page.getByLabel("Key 1 meaning").fill("Transfer the caller to Billing.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Assistant updated").waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Save", exact: true }).isDisabled()).toBe(true);

    // Functions and tool servers take effect at once.
    await openTab(page, "Functions");
    await choose(page, "Function to assign", "lookup_order");
    await page.getByRole("button", { name: "Assign function" }).click();
    await page.getByText("Function assigned").waitFor();
    await page.getByRole("list", { name: "Assigned functions" }).getByText("lookup_order").waitFor();
    await openTab(page, "Tool servers");
    await choose(page, "Tool server to assign", "Everything");
    await page.getByRole("button", { name: "Assign tool server" }).click();
    await page.getByText("Tool server assigned").waitFor();
    await page.getByRole("list", { name: "Assigned tool servers" }).getByText("Everything").waitFor();

    // Everything is still there after a reload (which also clears the notices before axe looks).
    await page.reload();
    await openTab(page, "Model");
    await select(page, "Language model provider").getByText("Azure OpenAI").waitFor();
    expect(await page.getByLabel("Deployment").inputValue()).toBe("gpt-4o-mini");
    expect(await page.getByLabel("Base URL").inputValue()).toBe("https://e2e-resource.openai.azure.com");
    expect(await page.getByRole("spinbutton", { name: "Wait after a finished sentence (ms)" }).inputValue()).toBe(
      "250",
    );
    expect(await page.getByLabel("End the turn on the transcriber's own signal").isChecked()).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await openTab(page, "More settings");
    expect(await page.getByLabel("HIPAA compliance").isChecked()).toBe(true);
    expect(await page.getByLabel("Record call audio").isChecked()).toBe(false);
    await page.getByRole("button", { name: "talk to you later" }).waitFor();
    await openTab(page, "Call transfer & DTMF");
    expect(await page.getByLabel("Destination 2 name").inputValue()).toBe("Billing");
    expect(await page.getByLabel("Destination 2 number").inputValue()).toBe("+15555550199");
    expect(await page.getByLabel("React to keypad presses").isChecked()).toBe(true);
    expect(await page.getByLabel("Key 1 meaning").inputValue()).toBe("Transfer the caller to Billing.");
    await openTab(page, "Functions");
    await page.getByRole("list", { name: "Assigned functions" }).getByText("lookup_order").waitFor();
    await openTab(page, "Tool servers");
    await page.getByRole("list", { name: "Assigned tool servers" }).getByText("Everything").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // Delete from the list, after confirming.
    await page.getByRole("link", { name: "All assistants" }).click();
    await page.getByRole("link", { name: "E2E Support Line" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Delete E2E Support Line" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByText("Assistant deleted").waitFor();
    await page.getByRole("link", { name: "E2E Support Line" }).waitFor({ state: "detached" });
    expect(await apiCall(product.server.url, token, "GET", "/agents")).toEqual([]);
    await page.close();
  });

  it("counts the editor saved once a switch to eSpeak is saved, and leaves without asking", async () => {
    const token = await adminToken(product.server);
    const { id } = await apiCall<{ id: string }>(product.server.url, token, "POST", "/agents", {
      name: "Offline voice",
    });
    const page = await openSignedIn(`/assistants/${id}?tab=voice`);
    await page.getByRole("heading", { level: 1, name: "Offline voice" }).waitFor();
    // The id an API call or an embed needs sits under the name, with a button that copies it.
    expect(await page.getByTestId("assistant-id").textContent()).toBe(id);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: product.server.url });
    await page.getByRole("button", { name: "Copy the assistant's ID" }).click();
    await page.getByRole("status").getByText("ID copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
    await choose(page, "Voice provider", "Local (offline, eSpeak NG)");
    await expect
      .poll(() => page.getByRole("combobox", { name: "Voice model", exact: true }).inputValue())
      .toBe("espeak-ng");
    await page.getByText("Unsaved changes").waitFor();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("Assistant updated").waitFor();
    // What the server kept is what the form holds: nothing is left to save, and leaving does not ask.
    await expect.poll(() => page.getByRole("button", { name: "Save", exact: true }).isDisabled()).toBe(true);
    expect(await page.getByText("Unsaved changes").count()).toBe(0);
    await page.getByRole("link", { name: "All assistants" }).click();
    await page.waitForURL((url) => url.pathname === "/assistants");
    expect(await page.getByRole("heading", { name: "Leave without saving?" }).count()).toBe(0);
    const saved = await apiCall<{ tts_provider: string }>(product.server.url, token, "GET", `/agents/${id}`);
    expect(saved.tts_provider).toBe("local");
    await page.close();
  });

  it("asks before leaving unsaved changes, and blank creation starts from the defaults", async () => {
    const page = await openSignedIn("/assistants");
    await page.getByRole("button", { name: "Create assistant" }).first().click();
    await page.getByRole("dialog").getByLabel("Assistant name").fill("Scratch pad");
    await page.getByRole("dialog").getByRole("button", { name: "Create", exact: true }).click();
    await page.getByText("Assistant created").waitFor();
    await page.getByRole("heading", { level: 1, name: "Scratch pad" }).waitFor();
    expect(await page.getByRole("button", { name: "Save", exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole("combobox", { name: "Model", exact: true }).inputValue()).toBe("gpt-4o-mini");

    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Scratch pad, renamed");
    await page.getByRole("link", { name: "All assistants" }).click();
    await page.getByRole("heading", { name: "Leave without saving?" }).waitFor();
    await page.getByRole("button", { name: "Keep editing" }).click();
    expect(await page.getByRole("textbox", { name: "Name", exact: true }).inputValue()).toBe("Scratch pad, renamed");
    await page.getByRole("link", { name: "All assistants" }).click();
    await page.getByRole("button", { name: "Discard changes" }).click();
    await page.waitForURL((url) => url.pathname === "/assistants");
    await page.getByRole("link", { name: "Scratch pad" }).waitFor();
    await page.close();
  });
});
