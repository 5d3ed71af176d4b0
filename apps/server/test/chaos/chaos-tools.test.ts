import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { call } from "../harness.ts";
import { type ChaosLlm, refusingBaseUrl, startChaosLlm } from "../support/chaos-llm.ts";
import { type ReceivedRequest, startReceiver } from "../support/loopback.ts";
import { startMcpServer } from "../support/mcp-server.ts";
import type { ChatRequestBody } from "../support/scripted-llm.ts";
import {
  type ChaosCall,
  chaosAssistant,
  dumpTimeline,
  expectGapUnderBound,
  expectOutcome,
  joinChaosCall,
  modelAt,
  reportGap,
  useChaosApp,
} from "./chaos-model-calls.ts";

/**
 * Issue 27, the tool stage and item 2: a function webhook that times out, answers 5xx or cannot be
 * reached, and an MCP server that dies mid-call, never leave the caller in silence and end the call
 * as tool_timeout / tool_error with the tool's fault; a webhook retried after a 503 gets the same
 * Idempotency-Key; an end_call inside a reply the caller interrupted is not run.
 */

const world = useChaosApp();
const QUESTION = "Can you book a table for seven?";
const BOOKED = "Your table is booked for seven.";
const SORRY = "I could not book that right now, sorry.";

/** The model: books through `tool` when asked, then says what the tool's answer means. */
const bookingModel = (tool: string) => (request: ChatRequestBody) => {
  const result = request.messages.findLast((m) => m.role === "tool")?.content;
  if (result !== undefined && result !== null) return { text: result.includes('"booked":true') ? BOOKED : SORRY };
  return { toolCall: { name: tool, arguments: '{"time":"7pm"}' } };
};

/** A function webhook answering each request with `respond` (by its index from 0). */
function webhook(respond: (n: number, res: ServerResponse) => void) {
  let n = 0;
  return startReceiver((_request: ReceivedRequest, res) => {
    respond(n, res);
    n += 1;
  });
}

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

/** An assistant whose model books through the function `book_table` at `url`. */
async function assistantWithFunction(llm: ChaosLlm, url: string) {
  const user = await chaosAssistant(world, modelAt(llm.baseUrl));
  const created = await call(world.t, "POST", "/api/v1/functions", {
    token: user.token,
    body: {
      name: "book_table",
      description: "Books a table",
      url,
      parameters: { type: "object", properties: { time: { type: "string" } } },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const assigned = await call(world.t, "POST", "/api/v1/functions/assign", {
    token: user.token,
    body: { agent_id: user.agentId, function_id: created.json().id },
  });
  expect(assigned.statusCode).toBeLessThan(300);
  return user;
}

/** Asks for the booking; waits for the model's last word (`expected`) and hangs up; the gap until it. */
async function bookAndHangUp(c: ChaosCall, expected: string, what: string) {
  const turnEnd = c.say(QUESTION);
  await c.client.waitFor(
    "transcript",
    (m) => m.role === "assistant" && m.final === true && String(m.text).includes(expected),
    90_000,
  );
  const shown = c.meter.messageAt(
    (m) => m.type === "transcript" && m.role === "assistant" && String(m.text).includes(expected),
    turnEnd,
  ) as number;
  const gap = c.meter.longestGap(turnEnd, c.meter.firstSoundAfter(shown - 50) ?? shown);
  dumpTimeline(what, c, turnEnd);
  reportGap(what, gap);
  await c.hangUp();
  return gap;
}

describe.concurrent("a function webhook that fails", () => {
  it("after a 503 is tried again with the same Idempotency-Key, and the model gets the 200", {
    timeout: 150_000,
  }, async () => {
    const llm = await startChaosLlm(bookingModel("book_table"));
    const hook = await webhook((n, res) =>
      n === 0 ? json(res, 503, { error: "busy" }) : json(res, 200, { booked: true }),
    );
    try {
      const c = await joinChaosCall(world, await assistantWithFunction(llm, `${hook.origin}/book`));
      const gap = await bookAndHangUp(c, BOOKED, "webhook 503 then 200");
      expectGapUnderBound(gap);
      const keys = hook.received.map((r) => r.headers["idempotency-key"]);
      expect(keys).toHaveLength(2);
      expect(keys[0]).toMatch(new RegExp(`^${c.callId}:call_`));
      expect(keys[1]).toBe(keys[0]);
      const { log, webhook: ended } = await c.outcome();
      expect(log.tool_calls).toEqual([expect.objectContaining({ name: "book_table", ok: true })]);
      expect(log.tool_calls[0]?.result).toContain('"booked":true');
      // A retry that worked is not a fault: the call ended as the caller ended it.
      for (const outcome of [log, ended]) expect(outcome.end_reason).toBe("caller_hangup");
    } finally {
      await Promise.all([llm.close(), hook.close()]);
    }
  });

  it("that never answers: the model hears the timeout, tool_timeout", { timeout: 150_000 }, async () => {
    const llm = await startChaosLlm(bookingModel("book_table"));
    const hook = await webhook(() => undefined);
    try {
      const c = await joinChaosCall(world, await assistantWithFunction(llm, `${hook.origin}/book`));
      const gap = await bookAndHangUp(c, SORRY, "webhook timeout");
      expectGapUnderBound(gap);
      expect(llm.requests[1]?.messages.find((m) => m.role === "tool")?.content).toMatch(/did not answer within 10 s/);
      expectOutcome(await c.outcome(), "tool_timeout", { stage: "tool", provider: "book_table", kind: "timeout" });
    } finally {
      await Promise.all([llm.close(), hook.close()]);
    }
  });
});

// Two calls at a time: the offline voice synthesizes on the server's thread, and more calls at once
// on a busy two-core machine measure its load rather than the fault policy.
describe.concurrent("a function webhook that keeps failing", () => {
  it("that answers 500 every time: retried once, tool_error (server_error)", { timeout: 150_000 }, async () => {
    const llm = await startChaosLlm(bookingModel("book_table"));
    const hook = await webhook((_n, res) => json(res, 500, { error: "database down" }));
    try {
      const c = await joinChaosCall(world, await assistantWithFunction(llm, `${hook.origin}/book`));
      const gap = await bookAndHangUp(c, SORRY, "webhook 500");
      expectGapUnderBound(gap);
      expect(hook.received).toHaveLength(2);
      expect(llm.requests[1]?.messages.find((m) => m.role === "tool")?.content).toContain(
        "The function answered with HTTP 500.",
      );
      expectOutcome(await c.outcome(), "tool_error", { stage: "tool", provider: "book_table", kind: "server_error" });
    } finally {
      await Promise.all([llm.close(), hook.close()]);
    }
  });

  it("that cannot be reached: tool_error (unreachable)", { timeout: 150_000 }, async () => {
    const llm = await startChaosLlm(bookingModel("book_table"));
    try {
      const url = (await refusingBaseUrl()).replace(/\/v1$/, "/book");
      const c = await joinChaosCall(world, await assistantWithFunction(llm, url));
      const gap = await bookAndHangUp(c, SORRY, "webhook refused");
      expectGapUnderBound(gap);
      expect(llm.requests[1]?.messages.find((m) => m.role === "tool")?.content).toMatch(/^Could not reach/);
      expectOutcome(await c.outcome(), "tool_error", { stage: "tool", provider: "book_table", kind: "unreachable" });
    } finally {
      await llm.close();
    }
  });
});

describe.concurrent("an MCP server, and a reply the caller interrupts", () => {
  it("that dies mid-call: tool_error (unreachable), the caller hears the apology", { timeout: 150_000 }, async () => {
    const llm = await startChaosLlm(bookingModel("bookings__book_table"));
    const mcp = await startMcpServer([
      { name: "book_table", description: "Books a table", answer: () => JSON.stringify({ booked: true }) },
    ]);
    try {
      const user = await chaosAssistant(world, modelAt(llm.baseUrl));
      const created = await call(world.t, "POST", "/api/v1/mcp-servers", {
        token: user.token,
        body: { name: "Bookings", url: mcp.url, timeout: 5 },
      });
      expect(created.statusCode, created.body).toBe(201);
      const linked = await call(
        world.t,
        "POST",
        `/api/v1/agents/${user.agentId}/mcp-servers/${created.json().mcp_server.id}`,
        { token: user.token },
      );
      expect(linked.statusCode).toBe(200);
      const c = await joinChaosCall(world, user);
      await mcp.close();
      const gap = await bookAndHangUp(c, SORRY, "MCP server died");
      expectGapUnderBound(gap);
      expect(llm.requests[1]?.messages.find((m) => m.role === "tool")?.content).toMatch(/MCP server "Bookings"/);
      expectOutcome(await c.outcome(), "tool_error", {
        stage: "tool",
        provider: "bookings__book_table",
        kind: "unreachable",
      });
    } finally {
      await Promise.all([llm.close(), mcp.close()]);
    }
  });

  it("does not end the call for an end_call inside a reply the caller barged into", { timeout: 150_000 }, async () => {
    const GOODBYE_REPLY =
      "Thank you for calling us today. It was a pleasure to help you with your booking. Have a lovely evening and goodbye.";
    const llm = await startChaosLlm((request) => {
      const said = request.messages.findLast((m) => m.role === "user")?.content ?? "";
      if (said.includes("wait")) return { text: "Of course, what else can I do for you?" };
      return { text: GOODBYE_REPLY, toolCall: { name: "end_call", arguments: "{}" } };
    });
    try {
      const user = await chaosAssistant(world, modelAt(llm.baseUrl));
      const c = await joinChaosCall(world, user);
      const turnEnd = c.say("That is all, thanks.");
      // The caller cuts in once the goodbye reply can be heard.
      await c.meter.waitForSound(turnEnd, "the goodbye reply", 60_000);
      c.say("Oh wait, one more thing.");
      await c.client.waitFor(
        "transcript",
        (m) => m.role === "assistant" && m.final === true && String(m.text).includes("what else"),
        60_000,
      );
      expect(c.client.messages.some((m) => m.type === "end")).toBe(false);
      await c.hangUp();
      const { log, webhook: ended } = await c.outcome();
      for (const outcome of [log, ended]) {
        expect(outcome.end_reason).toBe("caller_hangup");
        expect(outcome.events).toContainEqual(expect.objectContaining({ type: "tool_skipped", name: "end_call" }));
      }
      expect(log.tool_calls.some((t) => t.name === "end_call")).toBe(false);
    } finally {
      await llm.close();
    }
  });
});
