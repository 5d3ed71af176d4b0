import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../harness.ts";
import { type ChaosAnswer, type ChaosLlm, refusingBaseUrl, routeOrigin, startChaosLlm } from "../support/chaos-llm.ts";
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
 * Issue 27, the model stage with a backup model (fallback_providers.llm) and the walk of the issue:
 * the model server dies mid-call. A backup that takes over is heard within the bound and the call
 * reports fallback_used; with no backup the caller hears the recovery line and the goodbye, the
 * call ends assistant_error, and the operator's log has a warn/error line naming the call and the
 * provider.
 */

const world = useChaosApp();
const MAIN = "openai-compatible";
/** The backup is another vendor (its API routed to a double), as a real backup would be. */
const BACKUP = { provider: "groq", config: { model: "llama-3.3-70b-versatile" } };
const BACKUP_KEY = "gsk_chaos_backup_key_0123456789";
const QUESTION = "What are your opening hours?";
const ANSWER = "We open at nine in the morning and close at five.";
const LATER = "Do you open on Sundays?";
const SUNDAYS = "On Sundays we open at ten.";

let backup: ChaosLlm;
/** What the server logged at warn and above, one JSON line each. */
const logLines: string[] = [];

beforeAll(async () => {
  backup = await startChaosLlm((request) =>
    JSON.stringify(request.messages).includes("Sundays") ? { text: SUNDAYS } : { text: ANSWER },
  );
  world.t.ctx.network = routeOrigin(world.t.ctx.network, "https://api.groq.com", backup.origin);
  // The test app logs nothing; the call runtime's logger writes its warnings here instead.
  const log = world.t.ctx.calls.log as unknown as pino.Logger;
  Object.assign(log, { [pino.symbols.streamSym]: { write: (line: string) => logLines.push(line) } });
  log.level = "warn";
});
afterAll(async () => {
  await backup?.close();
});

/** An assistant on the model at `baseUrl`, with the backup model behind it when `withBackup`. */
async function assistantOn(baseUrl: string, withBackup: boolean) {
  const user = await chaosAssistant(world, {
    ...modelAt(baseUrl),
    ...(withBackup ? { fallback_providers: { llm: [BACKUP], stt: [], tts: [] } } : {}),
  });
  if (withBackup) {
    const saved = await call(world.t, "PUT", "/api/v1/integrations/groq", {
      token: user.token,
      body: { credentials: { api_key: BACKUP_KEY } },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  return user;
}

/** Waits for the assistant's line containing `words`; the silence up to its first sound, from `turnEnd`. */
async function answerHeard(c: ChaosCall, turnEnd: number, words: string) {
  await c.client.waitFor(
    "transcript",
    (m) => m.role === "assistant" && m.final === true && String(m.text).includes(words),
    60_000,
  );
  const shown = c.meter.messageAt(
    (m) => m.type === "transcript" && m.role === "assistant" && String(m.text).includes(words),
    turnEnd,
  ) as number;
  return c.meter.longestGap(turnEnd, c.meter.firstSoundAfter(shown - 50) ?? shown);
}

async function backupTakesOver(main: string, kind: string, what: string) {
  const user = await assistantOn(main, true);
  const c = await joinChaosCall(world, user);
  const turnEnd = c.say(QUESTION);
  const gap = await answerHeard(c, turnEnd, "close at five");
  dumpTimeline(what, c, turnEnd);
  reportGap(what, gap);
  await c.hangUp();
  expectGapUnderBound(gap);
  const outcome = await c.outcome();
  expectOutcome(outcome, "fallback_used", {
    stage: "llm",
    provider: MAIN,
    kind: kindsFor(kind, gap),
    action: "fallback",
  });
  expect(outcome.log.status).toBe("completed");
  expect(outcome.log.events).toContainEqual(expect.objectContaining({ type: "ended", reason: "caller_hangup" }));
}

async function mainFails(answer: ChaosAnswer, kind: string, what: string) {
  const main = await startChaosLlm(() => answer);
  try {
    await backupTakesOver(main.baseUrl, kind, what);
  } finally {
    await main.close();
  }
}

describe.concurrent("a backup model takes over", () => {
  it("when the model refuses connections: fallback_used", { timeout: 150_000 }, async () => {
    await backupTakesOver(await refusingBaseUrl(), "unreachable", "refused, backup");
  });

  it("when the model answers 503: fallback_used", { timeout: 150_000 }, async () => {
    await mainFails({ fault: "status", status: 503 }, "server_error", "503, backup");
  });

  it("when the model hangs before its first token: fallback_used", { timeout: 150_000 }, async () => {
    await mainFails({ fault: "hang" }, "timeout", "hang, backup");
  });
});

/** The walk: a call whose first turn is answered, then the model server is killed. */
async function killedMidCall(withBackup: boolean) {
  const main = await startChaosLlm((request) =>
    JSON.stringify(request.messages).includes("Sundays") ? { text: SUNDAYS } : { text: ANSWER },
  );
  try {
    const user = await assistantOn(main.baseUrl, withBackup);
    const c = await joinChaosCall(world, user);
    await answerHeard(c, c.say(QUESTION), "close at five");
    await c.meter.waitForQuiet(0, 500, "the first answer's end", 60_000);
    await main.kill();
    const turnEnd = c.say(LATER);
    return { c, turnEnd, callId: c.callId };
  } finally {
    await main.close();
  }
}

describe.concurrent("the model server killed mid-call (the issue's walk)", () => {
  it("with no backup: recovery line, goodbye, assistant_error, an error log line", { timeout: 150_000 }, async () => {
    const { c, turnEnd, callId } = await killedMidCall(false);
    await c.client.closed;
    const gap = gapAfterTurn(c, turnEnd);
    dumpTimeline("killed mid-call", c, turnEnd);
    reportGap("killed mid-call", gap);
    expectGapUnderBound(gap);
    const said = assistantLines(c, turnEnd).join(" ");
    expect(said).toContain(RECOVERY);
    expect(said).toContain(GOODBYE);
    const outcome = await c.outcome();
    expectOutcome(outcome, "assistant_error", { stage: "llm", provider: MAIN, kind: kindsFor("unreachable", gap) });
    expect(outcome.log.status).toBe("failed");
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.callId === callId);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 50, callId, provider: MAIN, stage: "llm", action: "gave_up" }),
    );
    expect(lines).toContainEqual(expect.objectContaining({ level: 40, callId, provider: MAIN, action: "recovered" }));
    for (const line of lines) expect(line.workspaceId).toEqual(expect.any(String));
  });

  it("with a backup: the backup answers, fallback_used, a warn log line", { timeout: 150_000 }, async () => {
    const { c, turnEnd, callId } = await killedMidCall(true);
    const gap = await answerHeard(c, turnEnd, SUNDAYS.split(" ").slice(0, 3).join(" "));
    dumpTimeline("killed mid-call, backup", c, turnEnd);
    reportGap("killed mid-call, backup", gap);
    await c.hangUp();
    expectGapUnderBound(gap);
    const outcome = await c.outcome();
    expectOutcome(outcome, "fallback_used", {
      stage: "llm",
      provider: MAIN,
      kind: kindsFor("unreachable", gap),
      action: "fallback",
    });
    const lines = logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.callId === callId);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, callId, provider: MAIN, stage: "llm", action: "fallback" }),
    );
  });
});
