import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiCall } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { openHomePage } from "../support/browser.ts";
import { endBrowserCall, startBrowserCall } from "../support/browser-call.ts";
import { useProduct } from "../support/product.ts";
import { type ScriptedLlm, startScriptedLlm } from "../support/scripted-llm.ts";
import { expectHeardReply, startsOneOf } from "../support/transcript.ts";

// A caller speaks through Chromium's fake microphone (a WAV synthesized here), the offline
// recogniser hears it, a scripted OpenAI-compatible model answers and the offline voice speaks.
const replies = ["We open at nine in the morning.", "You are welcome. Goodbye!"];

const startsAReply = startsOneOf(replies);
const product = useProduct(
  { PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
  { microphone: "What time do you open tomorrow?" },
);
let llm: ScriptedLlm;
let token: string;
let assistantId: string;

beforeAll(async () => {
  llm = await startScriptedLlm(replies);
  token = await adminToken(product.server);
  assistantId = await createOfflineAssistant(product.server, token, llm.baseUrl, {
    name: "Front desk",
    first_message: "Hello, this is the front desk. How can I help?",
    system_prompt: "You answer questions about opening hours.",
    dtmf_enabled: true,
    dtmf_mapping: { "1": "The caller asks for the weekend hours." },
  });
});

afterAll(async () => {
  await llm?.stop();
});

// Each call runs speech recognition and synthesis on the server: on a loaded two-core machine a test
// takes several times as long as alone, so it gets two minutes rather than the suite's one.
const CALL_TEST_TIMEOUT_MS = 120_000;

describe("a live call in the browser", () => {
  // A test that fails leaves no call running into the next one: its pages are closed, ending its call.
  afterEach(async () => {
    await Promise.all(product.browser.contexts().map((context) => context.close()));
  });

  it("talks with the assistant by voice and leaves a complete call log", {
    timeout: CALL_TEST_TIMEOUT_MS,
  }, async () => {
    const page = await openHomePage(product.browser, product.server);
    await startBrowserCall(page, product.server, assistantId);
    const panel = page.getByTestId("live-call");

    const chat = page.getByRole("log", { name: "Conversation" });
    // The assistant answers and the caller hears it.
    await expectHeardReply(chat, startsAReply, panel, { user: 60_000 });
    expect(llm.requests.length).toBeGreaterThan(0);

    // A keypad press reaches the model as the text its DTMF mapping gives it.
    await page.getByRole("button", { name: "Keypad" }).click();
    await page.getByRole("button", { name: "Press 1" }).click();
    await page.keyboard.press("Escape");
    await expect
      .poll(() => JSON.stringify(llm.requests.at(-1)?.messages ?? []), { timeout: 20_000 })
      .toContain("weekend hours");

    await endBrowserCall(page);

    // The call log holds both sides of the transcript, the recording and per-turn metrics.
    await expect
      .poll(
        async () =>
          (await apiCall<{ data: { status: string }[] }>(product.server.url, token, "GET", "/call-logs")).data[0]
            ?.status,
        {
          timeout: 15_000,
        },
      )
      .toBe("completed");
    const page1 = await apiCall<{ data: { id: string }[] }>(product.server.url, token, "GET", "/call-logs");
    const log = await apiCall<{
      transcript: { role: string; text: string }[];
      turn_metrics: { voice_to_voice_ms: number | null }[];
      has_recording: boolean;
    }>(product.server.url, token, "GET", `/call-logs/${page1.data[0]?.id}`);
    expect(log.transcript.some((e) => e.role === "user" && e.text.length > 0)).toBe(true);
    // The log keeps what the caller heard of each reply: the looping test microphone may barge in
    // mid-reply ("We open"), so a logged line is the start of one of the model's scripted replies.
    const heard = log.transcript.filter((e) => e.role === "assistant" && e.text.trim().length > 0);
    const spoken = heard.find((e) => replies.some((reply) => reply.startsWith(e.text.trim())));
    expect(spoken).toBeDefined();
    expect(log.has_recording).toBe(true);
    expect(log.turn_metrics.length).toBeGreaterThan(0);
    const recording = await fetch(`${product.server.url}/api/v1/call-logs/${page1.data[0]?.id}/recording`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(recording.headers.get("content-type")).toMatch(/audio\/wav/);
    expect((await recording.arrayBuffer()).byteLength).toBeGreaterThan(44 + 16000);

    // The call log page shows it with its transcript, as logged.
    await page.goto(`${product.server.url}/call-logs`);
    await page
      .getByRole("row", { name: /Open the call with Front desk/ })
      .first()
      .click();
    await page
      .getByRole("list", { name: "Transcript" })
      .getByText(spoken?.text.trim() ?? "")
      .first()
      .waitFor();
    await page.close();
  });

  it("ends a second call when the caller is removed from the live monitor", {
    timeout: CALL_TEST_TIMEOUT_MS,
  }, async () => {
    const caller = await openHomePage(product.browser, product.server);
    await startBrowserCall(caller, product.server, assistantId);

    const monitor = await openHomePage(product.browser, product.server);
    await monitor.goto(`${product.server.url}/call-logs`);
    const room = monitor.locator("[data-room]").first();
    await room.waitFor();
    const callerRow = room.getByRole("listitem").filter({ hasText: "Caller" });
    await callerRow.getByRole("button", { name: /^Remove / }).click();
    await monitor.getByRole("button", { name: "Remove", exact: true }).click();
    await monitor.getByText(/was removed from the call/).waitFor();

    await caller.waitForSelector('[data-testid="live-call"]:not([data-status="connected"])');
    await caller.getByText(/the participant was removed/).waitFor();
    await expect
      .poll(
        async () =>
          (await apiCall<{ rooms: unknown[] }>(product.server.url, token, "GET", "/agents/room/workspace_rooms")).rooms
            .length,
      )
      .toBe(0);
    await monitor.close();
    await caller.close();
  });
});
