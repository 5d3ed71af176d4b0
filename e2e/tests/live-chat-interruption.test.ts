import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, apiCall } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { launchBrowser, openHomePage } from "../support/browser.ts";
import { endBrowserCall, startBrowserCall } from "../support/browser-call.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { lineTexts } from "../support/transcript.ts";

/**
 * Issue 26, item 16: a caller who barges in while the assistant is still thinking cuts no words,
 * so the live chat keeps the greeting it heard whole — as the call log does — instead of turning it
 * into "…". The caller types (the keyboard barges in like speech) and the browser's microphone is
 * silent, so nothing but the typed turns reaches the assistant.
 */

const GREETING = "Hello, this is the front desk.";
const ANSWER = "We open at nine.";

interface HeldModel {
  baseUrl: string;
  /** User messages of the requests received, newest last. */
  asked: string[];
  stop(): Promise<void>;
}

/**
 * An OpenAI-compatible model that never answers a request whose last caller words contain "first"
 * (the assistant stays thinking until the caller's next turn cancels it) and streams ANSWER otherwise.
 */
async function startHeldModel(): Promise<HeldModel> {
  const asked: string[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      const request = JSON.parse(body || "{}") as { messages?: { role: string; content: unknown }[] };
      const last = [...(request.messages ?? [])].reverse().find((m) => m.role === "user");
      const words = String(last?.content ?? "");
      asked.push(words);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
        `data: ${JSON.stringify({ id: "held", object: "chat.completion.chunk", created: 0, model: "held", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.write(chunk({ role: "assistant", content: "" }));
      if (/first/i.test(words) && !/second/i.test(words)) {
        held.push(res);
        return;
      }
      res.write(chunk({ content: ANSWER }));
      res.write(chunk({}, "stop"));
      res.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    asked,
    stop: () =>
      new Promise((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Ten seconds of silence as the fake microphone's file (Chromium loops it). */
function silentMicrophone(): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "parley-quiet-mic-")), "silence.wav");
  execFileSync("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", file, "trim", "0", "10"]);
  return file;
}

let server: RunningServer;
let browser: Browser;
let model: HeldModel;
let token: string;
let assistantId: string;

beforeAll(async () => {
  model = await startHeldModel();
  [server, browser] = await Promise.all([
    startServer({ PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" }),
    launchBrowser([
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${silentMicrophone()}`,
      "--autoplay-policy=no-user-gesture-required",
    ]),
  ]);
  token = await adminToken(server);
  assistantId = await createOfflineAssistant(server, token, model.baseUrl, {
    name: "Front desk",
    first_message: GREETING,
    system_prompt: "You answer questions about opening hours.",
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await model?.stop();
});

describe("the live chat after a barge-in while the assistant thinks", () => {
  it("keeps the greeting as heard, like the call log, with no lone ellipsis", { timeout: 150_000 }, async () => {
    const page = await openHomePage(browser, server);
    page.setDefaultTimeout(60_000);
    await startBrowserCall(page, server, assistantId);
    const panel = page.getByTestId("live-call");
    const chat = page.getByRole("log", { name: "Conversation" });
    const assistantLines = chat.locator('[data-role="assistant"]');
    const say = async (text: string) => {
      await panel.getByRole("textbox", { name: "Type a message" }).fill(text);
      await panel.getByRole("button", { name: "Send message" }).click();
    };

    // The greeting is spoken whole, then the assistant listens.
    await chat.getByText(GREETING, { exact: true }).waitFor();
    await panel.getByText("Listening", { exact: true }).waitFor();

    // The first question keeps the model busy; the second cuts it short before any word is spoken.
    await say("My first question: when do you open?");
    await expect.poll(() => model.asked.length, { timeout: 30_000 }).toBe(1);
    await panel.getByText("Thinking", { exact: true }).waitFor();
    await say("And my second question, please answer that.");
    await chat.getByText(ANSWER, { exact: true }).waitFor();

    const shown = await lineTexts(assistantLines);
    expect(shown[0]).toBe(GREETING);
    expect(shown.filter((text) => /^…$|^\s*$/.test(text))).toEqual([]);
    await endBrowserCall(page);

    // The call log keeps the same words for the greeting.
    const list = async () =>
      (await apiCall<{ data: { id: string; status: string }[] }>(server.url, token, "GET", "/call-logs")).data;
    await expect.poll(async () => (await list())[0]?.status, { timeout: 30_000 }).toBe("completed");
    const log = await apiCall<{ transcript: { role: string; text: string }[] }>(
      server.url,
      token,
      "GET",
      `/call-logs/${(await list())[0]?.id}`,
    );
    expect(log.transcript.find((line) => line.role === "assistant")?.text).toBe(shown[0]);
    await page.close();
  });
});
