import { createHash } from "node:crypto";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiCall, apiLogin, createUser } from "../support/api.ts";
import { createOfflineAssistant } from "../support/assistants.ts";
import { seriousViolations } from "../support/axe.ts";
import { signIn } from "../support/browser.ts";
import { endBrowserCall, startBrowserCall } from "../support/browser-call.ts";
import { type ChatModel, type ChatRequest, startChatModel, systemPromptOf } from "../support/chat-model.ts";
import { inviteToAdminWorkspace } from "../support/invitations.ts";
import { useSignedInProduct } from "../support/product.ts";
import { startSmtpServer } from "../support/smtp.ts";

// Issue 30's results from real calls: two members of a workspace each hold a browser call while a
// 50/50 experiment splits the assistant between v1 and v2, one landing on each version. Each call's
// log shows the version chip, and the experiment's chart and table show each variant's own figures,
// from the calls' post-call verdicts (v1 books the table and passes, v2 does not).

// One word each: said whole before the caller's microphone, which talks on, can cut in.
const BOOKED = "Booked.";
const FULL = "Full.";

/** The model: each version's prompt has its own answer; the verdict passes a call whose table was booked. */
function answer(request: ChatRequest): string {
  const system = systemPromptOf(request);
  if (system.startsWith("You evaluate whether")) {
    const booked = JSON.stringify(request.messages).includes(`Assistant: ${BOOKED}`);
    return JSON.stringify({ verdict: booked ? "pass" : "fail", reason: booked ? "Booked." : "Not booked." });
  }
  return system.includes("PROMPT-ONE") ? BOOKED : FULL;
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const product = useSignedInProduct(
  async () => {
    smtp = await startSmtpServer();
    return { PARLEY_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", SIP_PORT: "off", SMTP_URL: smtp.url };
  },
  { microphone: "A table for four please." },
);
let model: ChatModel;
let page: Page;
let assistantId = "";
let experimentId = "";
/** Which version each member's calls run, as the experiment assigns them. */
const versionOf = new Map<"admin" | "teammate", number>();
const callOf = new Map<"admin" | "teammate", string>();
let teammate: Awaited<ReturnType<typeof createUser>>;

const api = <T>(method: string, path: string, body?: unknown) =>
  apiCall<T>(product.server.url, product.token, method, path, body);

/**
 * The variant a signed-in member's browser calls get in a 50/50 experiment: the server hashes the
 * experiment's id with the caller's key (SHA-256, first four bytes, 10,000 buckets, shares in order).
 */
const firstHalf = (id: string, userId: string) =>
  createHash("sha256").update(`${id}:user:${userId}`).digest().readUInt32BE(0) % 10_000 < 5_000;

/**
 * A running 50/50 experiment between v1 and v2 in which the two members land on different
 * versions: a draft where both would share one is deleted and another made (each try is a coin toss).
 */
async function splitBetween(adminId: string, teammateId: string): Promise<void> {
  for (let attempt = 1; attempt <= 20; attempt++) {
    const draft = await api<{ id: string }>("POST", `/agents/${assistantId}/experiments`, {
      name: "Booking prompt",
      channel: "browser",
      variants: [
        { version: 1, percent: 50 },
        { version: 2, percent: 50 },
      ],
    });
    const admin = firstHalf(draft.id, adminId);
    if (admin !== firstHalf(draft.id, teammateId)) {
      versionOf.set("admin", admin ? 1 : 2);
      versionOf.set("teammate", admin ? 2 : 1);
      experimentId = draft.id;
      await api("POST", `/agents/${assistantId}/experiments/${draft.id}/start`);
      return;
    }
    await api("DELETE", `/agents/${assistantId}/experiments/${draft.id}`);
  }
  throw new Error("no experiment split the two members in 20 tries");
}

beforeAll(async () => {
  model = await startChatModel(answer);
  assistantId = await createOfflineAssistant(product.server, product.token, model.baseUrl, {
    name: "Bookings",
    first_message: "Bella Cucina, how can I help?",
    system_prompt: "PROMPT-ONE: you take table bookings.",
    analysis: { success_evaluation: { enabled: true, rubric: "The caller's table was booked.", scale: "pass_fail" } },
  });
  await api("PUT", `/agents/${assistantId}/draft`, { system_prompt: "PROMPT-TWO: you take table bookings." });
  await api("POST", `/agents/${assistantId}/publish`, { note: "Second prompt" });

  teammate = await createUser(product.server.url, product.token, "Second Member");
  const { link } = await inviteToAdminWorkspace(product.server, product.token, smtp, teammate.email);
  const teammateToken = await apiLogin(product.server.url, teammate.username, teammate.password);
  await apiCall(product.server.url, teammateToken, "POST", "/invitations/accept", {
    token: new URL(link).searchParams.get("invitation"),
  });
  const [admin, mate] = await Promise.all([
    api<{ id: string }>("GET", "/users/me"),
    apiCall<{ id: string }>(product.server.url, teammateToken, "GET", "/users/me"),
  ]);
  await splitBetween(admin.id, mate.id);
  page = product.page;
}, 240_000);

afterAll(async () => {
  await model?.stop();
  await smtp?.close();
});

type LogPage = { data: { id: string }[] };
type Transcript = { transcript: { role: string; text: string }[] };

/**
 * Holds one browser call on `tab` until the assistant's answer is on the call's own transcript (so
 * post-call analysis reads it), then hangs up; the call's id.
 */
async function holdCall(tab: Page, expected: string): Promise<string> {
  const known = new Set((await api<LogPage>("GET", "/call-logs?items_per_page=50")).data.map((log) => log.id));
  await startBrowserCall(tab, product.server, assistantId);
  await tab.getByRole("log", { name: "Conversation" }).getByText(expected).waitFor({ timeout: 90_000 });
  const added = (await api<LogPage>("GET", "/call-logs?items_per_page=50")).data.filter((log) => !known.has(log.id));
  expect(added).toHaveLength(1);
  const callId = (added[0] as { id: string }).id;
  const deadline = Date.now() + 60_000;
  const said = (log: Transcript) => log.transcript.some((line) => line.role === "assistant" && line.text === expected);
  while (!said(await api<Transcript>("GET", `/call-logs/${callId}`))) {
    if (Date.now() > deadline) throw new Error(`the call's transcript never held "${expected}"`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await endBrowserCall(tab);
  return callId;
}

const spoken = (version: number | undefined) => (version === 1 ? BOOKED : FULL);

describe("an experiment's calls in the browser", () => {
  it("runs each member's call on their own version, shown as the version chip in the call log", async () => {
    callOf.set("admin", await holdCall(page, spoken(versionOf.get("admin"))));
    const tab = await product.browser.newContext().then((context) => context.newPage());
    tab.setDefaultTimeout(60_000);
    await signIn(tab, product.server.url, teammate.username, teammate.password);
    await tab.getByRole("button", { name: "Account menu" }).waitFor();
    callOf.set("teammate", await holdCall(tab, spoken(versionOf.get("teammate"))));
    await tab.context().close();

    for (const who of ["admin", "teammate"] as const) {
      await page.goto(`${product.server.url}/call-logs?call=${callOf.get(who)}`);
      const details = page.getByRole("region", { name: "Call details" });
      await details.getByText(`Version ${versionOf.get(who)}`, { exact: true }).waitFor();
      await page.keyboard.press("Escape");
    }
    expect(await seriousViolations(page)).toEqual([]);
  }, 400_000);

  it("shows each variant's own figures in the results chart and table", async () => {
    // The verdicts come from post-call analysis, a job that runs after each call ends.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const results = await api<{ variants: { version: number; judged: number }[] }>(
        "GET",
        `/agents/${assistantId}/experiments/${experimentId}/results`,
      );
      if (results.variants.every((variant) => variant.judged === 1)) break;
      if (Date.now() > deadline) throw new Error(`the calls were not judged: ${JSON.stringify(results)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    await page.goto(`${product.server.url}/assistants/${assistantId}?tab=versions`);
    const experiment = page.getByRole("tabpanel").getByRole("article", { name: "Booking prompt" });
    const chart = experiment.getByTestId("success-chart");
    await chart.waitFor();
    const bars = chart.locator(":scope > div");
    expect(await bars.allInnerTexts()).toEqual([
      expect.stringMatching(/^v1\s+100%$/),
      expect.stringMatching(/^v2\s+0%$/),
    ]);
    const table = experiment.getByRole("table", { name: "Results per version" });
    await table.getByRole("row", { name: /^v1 · 50% 1 1 100%/ }).waitFor();
    await table.getByRole("row", { name: /^v2 · 50% 1 1 0%/ }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  }, 200_000);
});
