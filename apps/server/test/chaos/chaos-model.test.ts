import { describe, expect, it } from "vitest";
import {
  type ChaosAnswer,
  type ChaosLlm,
  refusingBaseUrl,
  startChaosLlm,
  UNRESOLVABLE_BASE_URL,
} from "../support/chaos-llm.ts";
import {
  assistantLines,
  type ChaosCall,
  chaosAssistant,
  dumpTimeline,
  expectGapUnderBound,
  expectOutcome,
  GOODBYE,
  gapAfterTurn,
  joinChaosCall,
  kindsFor,
  modelAt,
  RECOVERY,
  reportGap,
  useChaosApp,
} from "./chaos-model-calls.ts";

/**
 * Issue 27, the model stage, with no backup model: a call whose model fails in each way a vendor
 * fails keeps the caller from silence (the recovery line, then the goodbye — or the reply once the
 * model answers again), and its log and call.ended webhook name the stage (assistant_error) and
 * hold the fault with its provider and kind. The caller's turns are typed ({type:"text"}): a spoken
 * turn through the offline recogniser took 7–10 s to be recognised on a loaded two-core machine,
 * which would measure the recogniser, not the model's faults (the transcriber's own chaos tests
 * cover speech).
 */

const world = useChaosApp();
const PROVIDER = "openai-compatible";
const QUESTION = "What are your opening hours?";
const ANSWER = "We open at nine in the morning and close at five.";

/** A call to an assistant whose model is at `baseUrl`, in which the caller has asked its question. */
async function callWith(baseUrl: string) {
  const user = await chaosAssistant(world, modelAt(baseUrl));
  const c = await joinChaosCall(world, user);
  return { c, turnEnd: c.say(QUESTION) };
}

/** The model never answers: the caller hears the recovery line, then the goodbye, and the call ends. */
async function expectGaveUp(c: ChaosCall, turnEnd: number, kind: string, what: string) {
  await c.client.closed;
  const gap = gapAfterTurn(c, turnEnd);
  dumpTimeline(what, c, turnEnd);
  reportGap(what, gap);
  expectGapUnderBound(gap);
  const said = assistantLines(c, turnEnd).join(" ");
  expect(said).toContain(RECOVERY);
  expect(said).toContain(GOODBYE);
  const outcome = await c.outcome();
  // The kind is the first failure's; the request asked again may be cut off by the first-token
  // deadline instead when the server's event loop is late (see the report of issue 27).
  expectOutcome(outcome, "assistant_error", { stage: "llm", provider: PROVIDER, kind: kindsFor(kind, gap) });
  expectOutcome(outcome, "assistant_error", { stage: "llm", provider: PROVIDER, action: "gave_up" });
  expect(outcome.log.status).toBe("failed");
}

async function downWith(answer: ChaosAnswer, kind: string, what: string) {
  const llm = await startChaosLlm(() => answer);
  try {
    const { c, turnEnd } = await callWith(llm.baseUrl);
    await expectGaveUp(c, turnEnd, kind, what);
  } finally {
    await llm.close();
  }
}

// Three calls at a time: each synthesizes speech on the server's thread, and more at once would
// measure the machine's load rather than the fault policy.
describe.concurrent("a model that cannot be reached, with no backup", () => {
  it("refuses connections: recovery, goodbye, assistant_error (unreachable)", { timeout: 150_000 }, async () => {
    const { c, turnEnd } = await callWith(await refusingBaseUrl());
    await expectGaveUp(c, turnEnd, "unreachable", "refused");
  });

  it("has a host name that does not resolve: unreachable", { timeout: 150_000 }, async () => {
    const { c, turnEnd } = await callWith(UNRESOLVABLE_BASE_URL);
    await expectGaveUp(c, turnEnd, "unreachable", "dns");
  });

  it("hangs before its first token: timeout", { timeout: 150_000 }, async () => {
    await downWith({ fault: "hang" }, "timeout", "hang");
  });
});

describe.concurrent("a model that refuses the request, with no backup", () => {
  it("answers 401 (bad key): rejected", { timeout: 150_000 }, async () => {
    await downWith({ fault: "status", status: 401, message: "Incorrect API key provided" }, "rejected", "401");
  });

  it("answers 404 (model not found): rejected", { timeout: 150_000 }, async () => {
    await downWith({ fault: "status", status: 404, message: "The model `chaos` does not exist" }, "rejected", "404");
  });

  it("answers 429: rate_limited", { timeout: 150_000 }, async () => {
    await downWith({ fault: "status", status: 429 }, "rate_limited", "429");
  });
});

describe.concurrent("a model that fails on its side, with no backup", () => {
  it("answers 500: server_error", { timeout: 150_000 }, async () => {
    await downWith({ fault: "status", status: 500 }, "server_error", "500");
  });

  it("answers 503: server_error", { timeout: 150_000 }, async () => {
    await downWith({ fault: "status", status: 503 }, "server_error", "503");
  });

  it("resets the connection without an answer: unreachable", { timeout: 150_000 }, async () => {
    await downWith({ fault: "reset" }, "unreachable", "reset");
  });
});

/** A model that fails the first request of the turn and answers the next one. */
async function recoversAfter(first: ChaosAnswer, then: ChaosAnswer = { text: ANSWER }) {
  const llm: ChaosLlm = await startChaosLlm((_request, n) => (n === 0 ? first : then));
  try {
    const { c, turnEnd } = await callWith(llm.baseUrl);
    await c.client.waitFor(
      "transcript",
      (m) => m.role === "assistant" && m.final === true && String(m.text).includes("close at five"),
      60_000,
    );
    const answered = c.meter.messageAt(
      (m) => m.type === "transcript" && m.role === "assistant" && String(m.text).includes("nine"),
    ) as number;
    // The window closes when the answer starts to be heard.
    const gap = c.meter.longestGap(turnEnd, c.meter.firstSoundAfter(answered - 50) ?? answered);
    await c.hangUp();
    return { c, turnEnd, gap, outcome: await c.outcome(), llm };
  } finally {
    await llm.close();
  }
}

describe.concurrent("a model that fails one request and answers the next", () => {
  it("sends a tool call whose arguments are not JSON: the model is told and answers", {
    timeout: 150_000,
  }, async () => {
    const { gap, outcome, llm } = await recoversAfter({
      toolCall: { name: "check_hours", arguments: '{"day": monday' },
    });
    reportGap("malformed tool call", gap);
    expectGapUnderBound(gap);
    const told = llm.requests[1]?.messages.find((m) => m.role === "tool")?.content ?? "";
    expect(told).toMatch(/not valid JSON/);
    expectOutcome(outcome, "assistant_error", {
      stage: "llm",
      provider: PROVIDER,
      kind: "malformed",
      action: "retried",
    });
    expect(outcome.log.status).toBe("completed");
  });
});
