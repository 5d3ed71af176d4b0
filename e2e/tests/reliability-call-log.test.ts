import { CallLog, CallLogPage, type CallLogSummary } from "@parley/contract";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInToHome } from "../support/browser.ts";
import { useProduct } from "../support/product.ts";

// Issue 27: the call page shows what failed in a call (stage, provider, kind, what the call did,
// the error), the side-effect tools an interruption kept from running, and how a call whose end
// reason reports a fault really ended; the list names the fault end reasons.

const product = useProduct();

const summary = (id: string, fields: Partial<CallLogSummary>): CallLogSummary => ({
  id,
  agent_id: null,
  agent_name: "Front desk",
  channel: "web",
  direction: "inbound",
  from_number: null,
  to_number: null,
  batch_call_id: null,
  test_run_id: null,
  origin: null,
  status: "completed",
  end_reason: "fallback_used",
  started_at: "2026-11-20T10:00:00.000Z",
  ended_at: "2026-11-20T10:01:05.000Z",
  duration_seconds: 65,
  cost: 0.02,
  ...fields,
});

const SURVIVED = summary("00000000-0000-4000-8000-0000000000b1", {});
const FAILED = summary("00000000-0000-4000-8000-0000000000b2", {
  status: "failed",
  end_reason: "assistant_error",
  started_at: "2026-11-20T09:00:00.000Z",
});

/** The logged events of a call whose model was unreachable, whose backup took over, and that the caller ended. */
const EVENTS = [
  {
    type: "fault",
    stage: "llm",
    provider: "openai-compatible",
    kind: "unreachable",
    action: "fallback",
    error: "getaddrinfo ENOTFOUND models.internal",
    at_ms: 12_300,
  },
  {
    type: "tool_skipped",
    name: "end_call",
    reason: "The caller interrupted the reply before it was heard.",
    at_ms: 30_000,
  },
  { type: "ended", reason: "caller_hangup", at_ms: 65_000 },
];

const detail = (call: CallLogSummary, events: unknown[]) =>
  CallLog.parse({
    ...call,
    transcript: [],
    tool_calls: [],
    turn_metrics: [],
    events,
    has_recording: false,
    cost_breakdown: null,
    analysis: null,
    workflow: null,
  });

/** The logs stand in for calls at the API boundary, in the contract's exact shape. */
async function serveCalls(page: Page) {
  const list = CallLogPage.parse({ data: [SURVIVED, FAILED], total_count: 2, page: 1, items_per_page: 20, pages: 1 });
  await page.route(/\/api\/v1\/call-logs(\?.*)?$/, (route) => route.fulfill({ json: list }));
  await page.route(new RegExp(`/api/v1/call-logs/${SURVIVED.id}$`), (route) =>
    route.fulfill({ json: detail(SURVIVED, EVENTS) }),
  );
  await page.route(new RegExp(`/api/v1/call-logs/${FAILED.id}$`), (route) =>
    route.fulfill({ json: detail(FAILED, []) }),
  );
}

describe("faults on the call page", () => {
  it("lists each fault, a skipped tool and how the call ended, and names the fault end reasons", {
    timeout: 180_000,
  }, async () => {
    const context = await product.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await signInToHome(page, product.server);
    await serveCalls(page);
    await page.goto(`${product.server.url}/call-logs`);
    await page.getByText("Backup provider used").first().waitFor();
    await page.getByText("Model failed").first().waitFor();

    await page.goto(`${product.server.url}/call-logs?call=${SURVIVED.id}`);
    const dialog = page.getByRole("dialog");
    const events = dialog.getByRole("list", { name: "Events" });
    await events
      .getByText("0:12.3 · Model (OpenAI-compatible server): could not be reached — switched to the backup", {
        exact: true,
      })
      .waitFor();
    await events.getByText("getaddrinfo ENOTFOUND models.internal", { exact: true }).waitFor();
    await events
      .getByText("0:30.0 · end_call not run: The caller interrupted the reply before it was heard.", { exact: true })
      .waitFor();
    await events.getByText("1:05.0 · Call ended: Caller hung up", { exact: true }).waitFor();
    await dialog.getByText("Backup provider used", { exact: true }).waitFor();
    await dialog.getByText("Ended: Caller hung up", { exact: true }).waitFor();
    // Nothing of the drawer runs off a phone's screen.
    const overflow = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: "/tmp/h27/call-log-faults-390.png", fullPage: true });
    await context.close();
  });
});
