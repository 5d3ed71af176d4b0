import { CallLog, CallLogPage, type CallLogSummary } from "@parley/contract";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, signInToHome } from "../support/browser.ts";
import { type RunningServer, startServer } from "../support/server.ts";

// Issue 26, items 2 and 19: the call page's latency chart draws each turn as tall as the caller
// waited, the end-of-turn wait included (not "928" over a bar of the other parts alone), says which
// end-of-turn rule ended each turn, and the call logs show each call's direction and a SIP trunk's
// refusal.

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const summary = (id: string, fields: Partial<CallLogSummary>): CallLogSummary => ({
  id,
  agent_id: null,
  agent_name: "Front desk",
  channel: "phone",
  direction: "outbound",
  from_number: "+14155550100",
  to_number: "+14155550123",
  batch_call_id: null,
  test_run_id: null,
  origin: null,
  status: "completed",
  end_reason: "caller_hangup",
  started_at: "2026-11-20T10:00:00.000Z",
  ended_at: "2026-11-20T10:01:05.000Z",
  duration_seconds: 65,
  cost: 0.02,
  ...fields,
});

const PHONE_CALL = summary("00000000-0000-4000-8000-0000000000a1", {});
const SIP_CALL = summary("00000000-0000-4000-8000-0000000000a2", {
  channel: "sip",
  direction: "inbound",
  status: "failed",
  end_reason: "SIP 503 Service Unavailable",
  duration_seconds: 0,
  cost: 0,
  started_at: "2026-11-20T09:00:00.000Z",
  ended_at: "2026-11-20T09:00:05.000Z",
});

/** The phone call's turns: an open phrase waited 700 ms, a late recogniser ended the next on the timeout rule. */
const TURNS = [
  {
    turn: 1,
    stt_ms: 120,
    end_of_turn_wait_ms: 700,
    llm_ttft_ms: 40,
    tts_ttfb_ms: 50,
    voice_to_voice_ms: 928,
    engine_overhead_ms: 18,
    end_of_turn_rule: "no_punctuation" as const,
  },
  {
    turn: 2,
    stt_ms: 2820,
    end_of_turn_wait_ms: 400,
    llm_ttft_ms: 42,
    tts_ttfb_ms: 208,
    voice_to_voice_ms: 3484,
    engine_overhead_ms: 14,
    end_of_turn_rule: "timeout" as const,
  },
];

/** A barge-in before a word of the reply was heard, and one that cut the reply after a few words. */
const EVENTS = [
  { type: "interruption", heard_text: "", at_ms: 4_000 },
  { type: "interruption", heard_text: "Your appointment is", at_ms: 9_000 },
];

const detail = (call: CallLogSummary, turns: typeof TURNS, events: unknown[] = []) =>
  CallLog.parse({
    ...call,
    transcript: [],
    tool_calls: [],
    turn_metrics: turns,
    events,
    has_recording: false,
    cost_breakdown: null,
    analysis: null,
    workflow: null,
  });

/**
 * Calls are only made by calls: these logs stand in for a phone call and a refused SIP call at the
 * API boundary, in the contract's exact shape, so the page renders what the server sends.
 */
async function serveCalls(page: Page) {
  const list = CallLogPage.parse({
    data: [PHONE_CALL, SIP_CALL],
    total_count: 2,
    page: 1,
    items_per_page: 20,
    pages: 1,
  });
  await page.route(/\/api\/v1\/call-logs(\?.*)?$/, (route) => route.fulfill({ json: list }));
  await page.route(new RegExp(`/api/v1/call-logs/${PHONE_CALL.id}$`), (route) =>
    route.fulfill({ json: detail(PHONE_CALL, TURNS, EVENTS) }),
  );
  await page.route(new RegExp(`/api/v1/call-logs/${SIP_CALL.id}$`), (route) =>
    route.fulfill({ json: detail(SIP_CALL, []) }),
  );
}

async function open(path: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signInToHome(page, server);
  await serveCalls(page);
  await page.goto(`${server.url}${path}`);
  return page;
}

/** A turn's bar as drawn: its stacked height in px, the label over it, and each part's height. */
async function barOf(page: Page, turn: number) {
  const bar = page.locator(`svg g[data-turn="${turn}"]`);
  await bar.waitFor();
  const parts = await bar
    .locator("rect")
    .evaluateAll((rects) =>
      rects.map((r) => ({ part: r.getAttribute("data-part") ?? "", height: Number(r.getAttribute("height")) })),
    );
  const label = Number(await bar.locator("text").nth(1).textContent());
  return { height: parts.reduce((sum, p) => sum + p.height, 0), label, parts };
}

describe("the call page's latency chart", () => {
  it("draws each turn as tall as the caller waited and names the rule that ended it", async () => {
    const page = await open(`/call-logs?call=${PHONE_CALL.id}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Latency per turn (ms)").waitFor();

    const first = await barOf(page, 1);
    const second = await barOf(page, 2);
    expect(first.label).toBe(928);
    expect(second.label).toBe(3484);
    // Heights are in proportion to the labels: the 928 ms turn is not drawn as its 210 ms of other parts.
    expect(first.height / second.height).toBeCloseTo(928 / 3484, 2);
    expect(first.parts.find((p) => p.part === "end_of_turn_wait_ms")?.height).toBeCloseTo(
      (700 / 928) * first.height,
      1,
    );

    // The legend names the end-of-turn wait, and each turn says which rule ended it.
    await dialog.getByText("End-of-turn wait", { exact: true }).waitFor();
    const rules = dialog.getByRole("list", { name: "How each turn ended" });
    await rules.getByText("Turn 1: 928 ms, ended by an open phrase").waitFor();
    await rules.getByText("Turn 2: 3484 ms, ended by timeout (no more words came)").waitFor();
    await dialog.getByText("Outbound", { exact: true }).waitFor();
    await page.context().close();
  });
});

describe("call direction and SIP refusals", () => {
  it("lists each call's direction and shows the SIP status a refused call ended with", async () => {
    const page = await open("/call-logs");
    const rows = page.locator("tbody tr");
    await rows.nth(1).waitFor();
    const cells = async (n: number) => (await rows.nth(n).locator("td").allInnerTexts()).map((text) => text.trim());
    expect(await cells(0)).toContain("Outbound");
    expect(await cells(1)).toContain("Inbound");
    expect(await cells(1)).toContain("SIP 503 Service Unavailable");

    await page.goto(`${server.url}/call-logs?call=${SIP_CALL.id}`);
    const dialog = page.getByRole("dialog");
    await dialog.getByText("SIP 503 Service Unavailable", { exact: true }).waitFor();
    await dialog.getByText("Inbound", { exact: true }).waitFor();
    await page.context().close();
  });
});

describe("interruptions on the call page", () => {
  it("quotes what the caller heard, and says so when they heard nothing instead of quoting nothing", async () => {
    const page = await open(`/call-logs?call=${PHONE_CALL.id}`);
    const dialog = page.getByRole("dialog");
    await dialog
      .getByText("0:04.0 · Caller interrupted before a word of the reply was heard", { exact: true })
      .waitFor();
    await dialog.getByText("0:09.0 · Caller interrupted “Your appointment is”", { exact: true }).waitFor();
    expect(await dialog.getByText("“”").count()).toBe(0);
    await page.context().close();
  });
});
