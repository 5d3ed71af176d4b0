import { createServer, type Server } from "node:http";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin } from "../support/api.ts";
import { seriousViolations } from "../support/axe.ts";
import { launchBrowser, signIn } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { speechWav } from "../support/speech-wav.ts";

// Post-call analysis in the browser: write the analysis settings in the assistant editor (the
// schema's problems show as they are typed), hold a call, and find its summary, verdict and
// extracted data on the call's page, filterable by verdict in the call logs. The assistant's
// model is a local OpenAI-compatible server that answers the call and each analysis task.

interface ChatBody {
  messages: { role: string; content: string | null }[];
}

/** The model: greets the call's request, then answers each analysis task by its instructions. */
function answer(body: ChatBody): string {
  const system = body.messages.find((m) => m.role === "system")?.content ?? "";
  if (system.startsWith("You analyse a finished phone call")) return "The caller asked for a table for four.";
  if (system.startsWith("You evaluate whether")) return '{"verdict": "pass", "reason": "The table was booked."}';
  if (system.startsWith("You extract structured data")) return '{"party_size": 4, "outcome": "booked"}';
  return "Your table for four is booked.";
}

async function startModel(): Promise<{ baseUrl: string; stop(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => {
      raw += chunk.toString();
    });
    req.on("end", () => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) return res.writeHead(404).end();
      const text = answer(JSON.parse(raw) as ChatBody);
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk({ role: "assistant", content: text }));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let model: Awaited<ReturnType<typeof startModel>>;
let server: RunningServer;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let page: Page;
let token: string;
let assistantId: string;

beforeAll(async () => {
  model = await startModel();
  const microphone = speechWav("A table for four please.");
  [server, browser] = await Promise.all([
    startServer({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", SIP_PORT: "off" }),
    launchBrowser([
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${microphone}`,
      "--autoplay-policy=no-user-gesture-required",
    ]),
  ]);
  token = await apiLogin(server.url, server.admin.email, server.admin.password);
  const assistant = await apiCall<{ id: string }>(server.url, token, "POST", "/agents", {
    name: "Bookings",
    first_speaker: "assistant",
    first_message: "Bella Cucina, how can I help?",
    llm_provider: "openai-compatible",
    llm_provider_config: { model: "scripted", base_url: model.baseUrl },
    stt_provider: "local",
    stt_provider_config: {},
    tts_provider: "local",
    tts_provider_config: { model: "espeak-ng", voice: "en-us", speed: 1, sampleRate: 16000 },
  });
  assistantId = assistant.id;
  page = await browser.newPage();
  // Two busy cores run this suite beside builds: waits are for conditions, with room to spare.
  page.setDefaultTimeout(60_000);
  // The form is filled once the page has settled: text typed while the app is still starting is lost.
  await page.goto(`${server.url}/auth/login`, { waitUntil: "networkidle" });
  await signIn(page, null, server.admin.email, server.admin.password);
  await page.waitForURL((url) => url.pathname === "/home");
}, 120_000);

afterAll(async () => {
  await page?.close();
  await browser?.close();
  await server?.stop();
  await model?.stop();
});

describe("post-call analysis", () => {
  it("is set up in the assistant editor, with the schema's problems shown as it is typed", async () => {
    await page.goto(`${server.url}/assistants/${assistantId}`);
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
      server.url,
      token,
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
    await page.goto(`${server.url}/assistant?assistantId=${assistantId}`);
    await page.getByRole("button", { name: "Start call" }).click();
    await page.waitForSelector('[data-testid="live-call"][data-status="connected"]');
    const chat = page.getByRole("log", { name: "Conversation" });
    await chat.getByText(/table for four is booked/).waitFor({ timeout: 60_000 });
    await page.getByRole("button", { name: "End call" }).click();
    await page.waitForSelector('[data-testid="live-call"][data-status="disconnected"]');

    await page.goto(`${server.url}/call-logs`);
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
