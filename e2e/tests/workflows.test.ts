import { readFileSync } from "node:fs";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { type ChatModel, type ChatRequest, startChatModel, systemPromptOf } from "../support/chat-model.ts";
import { storeArabicDarkMode } from "../support/preferences.ts";
import { useSignedInProduct } from "../support/product.ts";

// The workflow builder in the browser: build a small flow on the canvas (drag a step from the
// palette, join handles, set a path's condition), undo and redo, save, reload, publish, attach it
// to an assistant, and talk to it in the text test until it reaches its end step. The assistant's
// model is a local double speaking the OpenAI streaming protocol that routes like a model would:
// asked which condition holds, it picks "the caller says goodbye" once the caller said goodbye.

const ROUTER_PROMPT = "You route a phone conversation";
const HELP_REPLY = "Sure, what is your question?";
const AR_WORKFLOWS = JSON.parse(
  readFileSync(new URL("../../apps/web/src/i18n/locales/ar.json", import.meta.url), "utf8"),
).nav.workflows as string;

/** The model: routes to "the caller says goodbye" once the caller said goodbye, and helps otherwise. */
function answerOf(request: ChatRequest): string {
  if (!systemPromptOf(request).includes(ROUTER_PROMPT)) return HELP_REPLY;
  const conversation = request.messages.map((m) => String(m.content)).join("\n");
  return /goodbye/i.test(conversation.split("Conversation:").at(-1) ?? "")
    ? JSON.stringify({ choice: 1, reason: "The caller said goodbye" })
    : JSON.stringify({ choice: 0, reason: "The caller is still asking" });
}

const product = useSignedInProduct(
  { PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
  { viewport: { width: 1440, height: 900 } },
);
let llm: ChatModel;
let page: Page;
let assistantId = "";
let workflowPath = "";

const nodes = () => page.locator(".react-flow__node");
const node = (name: string) => page.locator(".react-flow__node", { hasText: name });
const panel = () => page.getByRole("region", { name: "Workflow canvas" });

/** Drags from one handle to another with the mouse, as a person joins two steps. */
async function joinHandles(from: Locator, to: Locator) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error("a handle is not on screen");
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.up();
}

/** Polls with room for two busy cores (expect.poll's own limit is a second). */
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 30_000 });

/** Whether all of an element lies inside the canvas: after a layout, once the view was fitted around it. */
async function inCanvas(target: Locator) {
  const [box, area] = await Promise.all([target.boundingBox(), panel().boundingBox()]);
  if (!box || !area) return false;
  return (
    box.x >= area.x &&
    box.y >= area.y &&
    box.x + box.width <= area.x + area.width &&
    box.y + box.height <= area.y + area.height
  );
}

beforeAll(async () => {
  llm = await startChatModel(answerOf);
  assistantId = await createOfflineAssistant(
    product.server,
    product.token,
    llm.baseUrl,
    {
      name: "Help line",
      first_message: "Hello.",
      system_prompt: "You answer callers' questions.",
    },
    "routing",
  );
  page = product.page;
});

afterAll(async () => {
  await llm?.stop();
});

describe("workflow builder", () => {
  it("builds a small workflow on the canvas, undoes and redoes, saves, and finds it again after a reload", async () => {
    await page.goto(`${product.server.url}/workflows`);
    await page.getByRole("heading", { name: "Workflows", level: 1 }).waitFor();
    await page.getByText("No workflows yet").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "New workflow" }).first().click();
    const dialog = page.getByRole("dialog", { name: "New workflow" });
    await dialog.getByRole("textbox", { name: "Name" }).fill("Support flow");
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.getByText("Workflow created").waitFor();
    await page.waitForURL((url) => /^\/workflows\/[0-9a-f-]{36}$/.test(url.pathname));
    workflowPath = new URL(page.url()).pathname;
    // A new workflow starts as a start step joined to an end step.
    await node("Start").waitFor();
    await node("End").first().waitFor();
    expect(await nodes().count()).toBe(2);

    // The starter path goes: select it by its label and delete it.
    await page.getByText("The caller's request is handled").click();
    await page.getByRole("region", { name: "Path" }).getByRole("button", { name: "Delete path" }).click();
    await page.getByText("The caller's request is handled").waitFor({ state: "detached" });

    // Drag a conversation step from the palette onto the canvas.
    const canvas = await panel().boundingBox();
    if (!canvas) throw new Error("no canvas");
    await page
      .getByRole("button", { name: "Add Conversation" })
      .dragTo(panel(), { targetPosition: { x: canvas.width * 0.7, y: canvas.height * 0.35 } });
    await poll(() => nodes().count()).toBe(3);

    // Undo takes the step away, redo brings it back (keyboard, outside any text field).
    await page.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
    await page.keyboard.press("Control+z");
    await poll(() => nodes().count()).toBe(2);
    await page.keyboard.press("Control+Shift+z");
    await poll(() => nodes().count()).toBe(3);

    // Auto-layout puts the three (unjoined) steps side by side, clear of each other, all in view.
    await page.getByRole("button", { name: "Auto-layout" }).click();
    for (const name of ["Start", "Conversation", "End call"]) await poll(() => inCanvas(node(name))).toBe(true);

    // Name the new step and give it its prompt in the side panel.
    await node("Conversation").click();
    const stepPanel = page.getByRole("region", { name: "Selected step" });
    await stepPanel.getByRole("textbox", { name: "Name" }).fill("Help desk");
    await stepPanel.getByRole("textbox", { name: "Prompt" }).fill("Answer the caller's question briefly.");
    await node("Help desk").waitFor();

    // Join start → Help desk → End by their handles.
    await joinHandles(
      node("Start").locator(".react-flow__handle.source"),
      node("Help desk").locator(".react-flow__handle.target"),
    );
    await joinHandles(
      node("Help desk").locator(".react-flow__handle.source"),
      node("End").locator(".react-flow__handle.target"),
    );
    await poll(() => page.locator(".react-flow__edge").count()).toBe(2);
    // Laid out again, the chain reads top to bottom.
    await page.getByRole("button", { name: "Auto-layout" }).click();
    await poll(async () => {
      const start = await node("Start").boundingBox();
      const end = await node("End").first().boundingBox();
      return Boolean(start && end && start.y < end.y);
    }).toBe(true);

    // The second path ends the call once the caller says goodbye: a condition the model judges.
    const pathPanel = page.getByRole("region", { name: "Path" });
    await pathPanel.getByText("From Help desk to End").waitFor();
    await pathPanel.getByRole("combobox", { name: "Taken when" }).click();
    await page.getByRole("option", { name: "The model judges it from the conversation" }).click();
    // An empty condition is marked on the canvas until it is described.
    await pathPanel
      .getByRole("list", { name: "Issues of this path" })
      .getByText("This path's condition is not complete.")
      .waitFor();
    await pathPanel.getByRole("textbox", { name: "Condition" }).fill("The caller says goodbye");
    await page.getByRole("tab", { name: /Issues/ }).click();
    await page.getByText("No issues: the workflow can be published.").waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole("button", { name: "Save draft" }).click();
    await page.getByText("Workflow saved").waitFor();
    await page.reload();
    await node("Help desk").waitFor();
    expect(await nodes().count()).toBe(3);
    await page.getByText("The caller says goodbye").waitFor();
    expect(await page.getByTestId("workflow-status").textContent()).toBe("Draft, never published");
  }, 240_000);

  it("publishes, and says what keeps a broken draft from being published", async () => {
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Published as version 1").waitFor();
    await poll(() => page.getByTestId("workflow-status").textContent()).toBe("Version 1 live");

    // A step left unjoined: the canvas marks it, and publishing lists why it cannot go live.
    await page.getByRole("button", { name: "Add End call" }).click();
    await poll(() => nodes().count()).toBe(4);
    await page.getByTestId("node-issue").first().waitFor();
    await page.getByRole("button", { name: "Publish" }).click();
    const refused = page.getByRole("dialog", { name: "The workflow cannot be published yet" });
    await refused.getByText('"End call 2" cannot be reached from the start.').waitFor();
    await refused.getByRole("button", { name: "Close" }).click();

    // Leaving with the unsaved step asks first; staying keeps it, then undo removes it.
    await page.getByRole("link", { name: "All workflows" }).click();
    const leave = page.getByRole("dialog", { name: "Leave without saving?" });
    await leave.getByRole("button", { name: "Stay" }).click();
    expect(await nodes().count()).toBe(4);
    await page.locator(".react-flow__pane").click({ position: { x: 20, y: 20 } });
    await page.keyboard.press("Control+z");
    await poll(() => nodes().count()).toBe(3);
    await poll(() => page.getByTestId("workflow-status").textContent()).toBe("Version 1 live");
  }, 120_000);

  it("attaches the workflow to an assistant and runs the text test to the end step", async () => {
    await page.goto(`${product.server.url}/assistants/${assistantId}/workflow`);
    await page.getByText("Help line has no workflow: its calls follow its own prompt.").waitFor();
    await page.getByRole("combobox", { name: "Workflow" }).click();
    await page.getByRole("option", { name: "Support flow" }).click();
    await page.getByRole("button", { name: "Attach" }).click();
    await page.getByText("Workflow attached").waitFor();
    await node("Help desk").waitFor();
    await page.getByText("Help line follows this workflow in its calls once it is published.").waitFor();

    await page.getByRole("tab", { name: "Test" }).click();
    const test = page.getByRole("region", { name: "Text test" });
    await poll(() => test.getByRole("combobox", { name: "Assistant" }).textContent()).toContain("Help line");
    await test.getByRole("button", { name: "Start", exact: true }).click();
    const log = test.getByRole("log", { name: "Test conversation" });
    await log.getByText("Hello! How can I help you today?").waitFor();
    expect(await test.getByTestId("test-active-node").textContent()).toBe("Start");
    await page.locator('[data-node-id="start"][data-active="true"]').waitFor();

    await test.getByRole("textbox", { name: "Your message" }).fill("Hello, I have a question about my bill.");
    await test.getByRole("button", { name: "Send" }).click();
    await log.getByText(HELP_REPLY).waitFor({ timeout: 60_000 });
    await poll(() => test.getByTestId("test-active-node").textContent()).toBe("Help desk");
    await node("Help desk").locator('[data-active="true"]').waitFor();

    await test.getByRole("textbox", { name: "Your message" }).fill("That answers it, thanks. Goodbye!");
    await test.getByRole("button", { name: "Send" }).click();
    await test.getByText("The conversation reached an end step.").waitFor({ timeout: 60_000 });
    await log.getByText("Thank you for calling. Goodbye!").waitFor();
    await log.getByText(/→ End \(The caller said goodbye\)/).waitFor();
    expect(await test.getByTestId("test-active-node").textContent()).toBe("End");
    expect(await seriousViolations(page)).toEqual([]);
  }, 240_000);

  it("lists the workflow with the assistant using it, duplicates it and deletes the copy after asking", async () => {
    await page.goto(`${product.server.url}/workflows`);
    const row = page.getByRole("row", { name: /Support flow/ }).first();
    await row.getByText("Help line").waitFor();
    await row.getByText("Version 1 live").waitFor();
    await page.getByRole("button", { name: "Duplicate Support flow" }).click();
    await page.getByText(/^Duplicated as /).waitFor();
    await poll(() => page.getByRole("row").count()).toBe(3);
    const copy = page.getByRole("row").filter({ hasNotText: "Help line" }).filter({ hasText: "Support flow" });
    const copyName = (await copy.getByRole("link").first().textContent()) ?? "";
    await page.getByRole("button", { name: `Delete ${copyName}` }).click();
    await page.getByRole("dialog", { name: "Delete this workflow?" }).getByRole("button", { name: "Delete" }).click();
    await page.getByText("Workflow deleted").waitFor();
    await poll(() => page.getByRole("row").count()).toBe(2);
  }, 120_000);

  it("keeps the path left when its sibling is deleted publishable, and keeps the overview map off a narrow canvas", async () => {
    const { id } = await apiCall<{ id: string }>(product.server.url, product.token, "POST", "/workflows", {
      name: "Two ways out",
    });
    // Help desk has two ways out: the default to End, and a path whose condition was never written.
    const at = (x: number, y: number) => ({ x, y });
    await apiCall(product.server.url, product.token, "PATCH", `/workflows/${id}`, {
      graph: {
        nodes: [
          { id: "start", type: "start", position: at(0, 0), data: { name: "Start", greeting: "Hello.", prompt: "" } },
          {
            id: "desk",
            type: "conversation",
            position: at(0, 150),
            data: { name: "Help desk", prompt: "Answer the caller's question.", collect: [] },
          },
          { id: "end", type: "end", position: at(-150, 300), data: { name: "End", message: "Goodbye!" } },
          {
            id: "agent",
            type: "transfer",
            position: at(150, 300),
            data: { name: "Agent", destination: "+14155550100", message: "" },
          },
        ],
        edges: [
          { id: "in", source: "start", target: "desk", condition: { kind: "always" } },
          { id: "bye", source: "desk", target: "end", label: "Goodbye path", condition: { kind: "default" } },
          { id: "person", source: "desk", target: "agent", condition: { kind: "model", description: "" } },
        ],
      },
    });
    await page.goto(`${product.server.url}/workflows/${id}`);
    await node("Agent").waitFor();

    // At 1440 px the canvas is about 570 px wide: no overview map lies over the steps.
    await poll(() => inCanvas(node("Agent"))).toBe(true);
    const map = page.locator(".react-flow__minimap");
    expect(await map.count()).toBe(0);

    // Deleting the default path leaves one way out, which is taken always: nothing blocks Publish.
    await page.getByText("Goodbye path").click();
    await page.getByRole("region", { name: "Path" }).getByRole("button", { name: "Delete path" }).click();
    await page.getByText("Goodbye path").waitFor({ state: "detached" });
    // End is left unjoined: delete it too, so the graph holds only what runs.
    await node("End").click();
    await page.getByRole("region", { name: "Selected step" }).getByRole("button", { name: "Delete step" }).click();
    await poll(() => nodes().count()).toBe(3);
    await page.getByRole("tab", { name: /Issues/ }).click();
    await page.getByText("No issues: the workflow can be published.").waitFor();
    await page.getByRole("button", { name: "Publish" }).click();
    await page.getByText("Published as version 1").waitFor();

    // On a wide canvas (the full-width layout on a large screen) the overview map is back.
    const storeLayout = (layout: string) =>
      page.evaluate((value) => {
        const stored = JSON.parse(localStorage.getItem("parley.preferences") ?? "{}");
        localStorage.setItem("parley.preferences", JSON.stringify({ ...stored, layout: value }));
      }, layout);
    await storeLayout("full");
    await page.setViewportSize({ width: 2400, height: 1200 });
    await page.reload();
    await node("Agent").waitFor();
    await map.waitFor();
    // Narrowed again, the map goes as the canvas shrinks.
    await page.setViewportSize({ width: 1440, height: 900 });
    await map.waitFor({ state: "detached" });
    await storeLayout("boxed");
  }, 120_000);

  it("reads right to left in Arabic and in dark mode without contrast or naming problems", async () => {
    await storeArabicDarkMode(page);
    await page.goto(`${product.server.url}${workflowPath}`);
    await node("Help desk").waitFor();
    await page.getByRole("button", { name: "حفظ المسودة" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe("rtl");
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${product.server.url}/workflows`);
    await page.getByRole("heading", { name: AR_WORKFLOWS, level: 1 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  }, 120_000);
});
