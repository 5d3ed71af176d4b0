import {
  type Assistant,
  type CallerTurn,
  type CallLog,
  type CallLogEvent,
  Expectation,
  SimulatedCaller,
  TEST_SUITE_LIMITS,
  type TestCallFigures,
} from "@parley/contract";
import {
  type CallerReport,
  callSettingsOf,
  createLine,
  createLineMeter,
  createSimulatedCaller,
  faultMessage,
  type LineMeter,
  type SimulatedCaller as SimulatedCallerSession,
} from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { ServerBusyError } from "../../lib/admission.ts";
import { AppError } from "../../lib/app-error.ts";
import type { CallOrigin, Room } from "../../lib/call-runtime.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { callVersionsOf } from "../assistants/call-assistant.ts";
import { type CallerProviders, callerProviders, providerSetupProblem } from "./caller-providers.ts";
import { callFigures, judgeExpectations } from "./expectations.ts";
import { type Judge, JudgeError } from "./judge.ts";
import { finishResult, markResultRunning, type ResultEnd, requeueResult, type TestResultRow } from "./run-rows.ts";
import { TestLineTransport } from "./test-line.ts";

/** Other calls hold the workspace's slots: a test call waits this long for one, asking this often. */
export const SLOT_WAIT_MS = 10 * 60_000;
const SLOT_POLL_MS = 2_000;
/** After its session ends, a call's log is written within moments; longer means the database is failing. */
const FINAL_LOG_WAIT_MS = 30_000;
/** The caller stops as soon as the call ends; its report follows at once. */
const CALLER_REPORT_WAIT_MS = 10_000;
/** The run ends a test call this long after the assistant's own limit would have. */
const CALL_GRACE_SECONDS = 30;

/** What every test call of a run shares. */
export interface TestCallDeps {
  ctx: AppContext;
  log: FastifyBaseLogger;
  tenant: TenantScope;
  runId: string;
  /** The assistant as the run's version runs it (its caller's defaults, its limits, its judge). */
  assistant: Assistant;
  judge: Judge;
  /** Aborted when the run is cancelled: live calls hang up, waiting ones give up. */
  cancelled: AbortSignal;
}

/** How a result came out: finished (written), or handed back pending for a later attempt (the server is stopping). */
export type TestCallOutcome = "finished" | "requeued";

/** Waits `ms`; false when `signal` aborts first. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<boolean>((resolve) => {
    if (signal.aborted) return resolve(false);
    const aborted = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", aborted);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", aborted, { once: true });
  });

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T | null> =>
  Promise.race([promise, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);

/** How long the run lets a test call go on before the caller hangs up. */
export const callLimitMs = (assistant: Assistant) =>
  Math.min(assistant.max_call_duration + CALL_GRACE_SECONDS, TEST_SUITE_LIMITS.maxCallSeconds) * 1000;

const CaseCopy = z.object({ caller: SimulatedCaller, expectations: z.array(Expectation) });

/**
 * Runs one result of a run: opens the call's room (waiting while other calls hold the workspace's
 * slots), joins the simulated caller through a test line, lets the call run to its end (or the
 * run's limit, or a cancel), then judges the expectations from the final call log, the caller's
 * report and the line meter, and writes the result.
 */
export async function runTestCall(deps: TestCallDeps, result: TestResultRow): Promise<TestCallOutcome> {
  const end = (outcome: ResultEnd) => finishResult(deps.ctx.db, deps.tenant, result.id, outcome, deps.ctx.now());
  try {
    const outcome = await callAndJudge(deps, result);
    if (outcome === "requeued") return outcome;
    if (outcome.status === "error") warnError(deps, result, outcome.error ?? "unknown");
    await end(outcome);
  } catch (error) {
    const reason = `The test call failed: ${faultMessage(error)}`;
    warnError(deps, result, reason);
    await end({ status: "error", error: reason });
  }
  return "finished";
}

function warnError(deps: TestCallDeps, result: TestResultRow, reason: string) {
  const fields = {
    workspaceId: deps.tenant.workspaceId,
    runId: deps.runId,
    resultId: result.id,
    case: result.caseName,
    attempt: result.attempt,
    callId: result.callId,
    reason,
  };
  deps.log.warn(fields, "a test call could not be run or judged");
}

async function callAndJudge(deps: TestCallDeps, result: TestResultRow): Promise<ResultEnd | "requeued"> {
  const { ctx, tenant, assistant } = deps;
  if (deps.cancelled.aborted) return { status: "cancelled" };
  const copy = CaseCopy.safeParse({ caller: result.caller, expectations: result.expectations });
  if (!copy.success) return { status: "error", error: `The case is not valid: ${copy.error.issues[0]?.message}` };
  const { caller, expectations } = copy.data;
  // The caller's side is built before the room opens, so a case that cannot be played holds no call slot.
  let side: CallerSide;
  try {
    side = buildCallerSide(
      caller,
      await callerProviders(ctx, tenant.workspaceId, caller, assistant),
      assistant,
      result,
    );
  } catch (error) {
    return { status: "error", error: `The simulated caller could not be set up: ${providerSetupProblem(error)}` };
  }
  const { simulated, meter, transport } = side;
  if (!ctx.node.accepting) return "requeued";
  const room = await openRoomWhenFree(deps, result);
  if (room === null) return { status: "cancelled" };
  if ("error" in room) return { status: "error", error: room.error };
  // The version the call runs, as its room recorded it (the run's own, version-pins.ts).
  const ran = (await callVersionsOf(ctx.db, tenant, [room.callId])).get(room.callId);
  const call = { callId: room.callId, agentVersion: ran?.version ?? null };
  if (!(await markResultRunning(ctx.db, tenant, result.id, call, ctx.now()))) {
    // The API cancelled this result while its room opened: free the slot.
    await ctx.calls.expireRoom(room, "removed");
    return { status: "cancelled" };
  }
  // The row in hand says which call, for the warning should this result still fail.
  result.callId = room.callId;
  const started = await startCall(deps, room, result, transport, caller.profile);
  if (typeof started === "string") return { status: "error", error: started };
  await runToEnd(deps, transport, simulated.done, started);
  const report = await withTimeout(simulated.done, CALLER_REPORT_WAIT_MS);
  const log = await finalLog(ctx, tenant, room.callId);
  // A server stopping ended the call, not the assistant: the result is called again by a later attempt.
  if (log.end_reason === "server_shutdown" && !deps.cancelled.aborted) {
    await requeueResult(ctx.db, tenant, result.id);
    return "requeued";
  }
  if (deps.cancelled.aborted) return { status: "cancelled" };
  if (!report) return { status: "error", error: "The simulated caller gave no report after the call ended." };
  return judged(deps, expectations, { log, caller: report, meter: meter.report() }, transport.callerOffsetMs());
}

interface CallerSide {
  simulated: SimulatedCallerSession;
  meter: LineMeter;
  transport: TestLineTransport;
}

/** The simulated caller, the line it calls over (seeded by the result, so loss and noise repeat) and the meter. */
function buildCallerSide(
  caller: SimulatedCaller,
  providers: CallerProviders,
  assistant: Assistant,
  result: TestResultRow,
): CallerSide {
  const simulated = createSimulatedCaller({
    plan: {
      mode: caller.mode,
      persona: caller.persona,
      script: caller.script,
      maxTurns: caller.max_turns,
      behaviours: caller.behaviours,
      language: assistant.language,
    },
    tts: providers.tts,
    llm: providers.llm,
    assistantSpeaksFirst: callSettingsOf(assistant).firstMessage !== null,
  });
  const phone = caller.profile === "phone";
  const line = createLine({
    profile: caller.profile,
    noiseDbfs: phone ? caller.phone_line.noise_dbfs : null,
    packetLossPercent: phone ? caller.phone_line.packet_loss_percent : 0,
    seed: result.id,
  });
  const meter = createLineMeter();
  return { simulated, meter, transport: new TestLineTransport(line, meter, simulated) };
}

/** Opens the test call's room; waits while the workspace's slots are taken. Null when the run is cancelled meanwhile. */
async function openRoomWhenFree(deps: TestCallDeps, result: TestResultRow): Promise<Room | { error: string } | null> {
  const { ctx, tenant, assistant } = deps;
  const deadline = Date.now() + SLOT_WAIT_MS;
  for (;;) {
    try {
      return await ctx.calls.openCallRoom(tenant, {
        agentId: assistant.id,
        channel: "test",
        direction: "inbound",
        testRunId: deps.runId,
        variables: result.variables,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // A missing key, the plan's minutes: the server's own sentence says what to do.
      // The workspace's slots are taken, or this process refuses new calls for now (admission
      // control): both free up; a test waits for them as a queued call would.
      if (error.code !== "rate_limited" && !(error instanceof ServerBusyError)) return { error: error.message };
      if (Date.now() >= deadline) {
        const minutes = SLOT_WAIT_MS / 60_000;
        return { error: `The workspace's concurrent calls stayed busy for ${minutes} minutes: ${error.message}` };
      }
      if (!(await sleep(SLOT_POLL_MS, deps.cancelled))) return null;
    }
  }
}

/** Joins the simulated caller to the call; the reason as a string when the call could not start. */
async function startCall(
  deps: TestCallDeps,
  room: Room,
  result: TestResultRow,
  transport: TestLineTransport,
  profile: "browser" | "phone",
) {
  const { ctx } = deps;
  const origin: CallOrigin = {
    channel: "test",
    direction: "inbound",
    from: null,
    to: null,
    telephonyPerMinute: 0,
    testLine: profile,
  };
  const participant = {
    identity: `test-caller-${result.id.slice(0, 8)}`,
    name: `Simulated caller (${result.caseName})`.slice(0, 100),
    kind: "caller" as const,
    joinedAt: ctx.now(),
  };
  try {
    return await ctx.calls.startLiveCall(room, participant, transport, origin);
  } catch (error) {
    return `The test call could not start: ${faultMessage(error)}`;
  }
}

/** Lets the call run until its session ends: the caller hangs up at its end or the run's limit, a cancel removes it. */
async function runToEnd(
  deps: TestCallDeps,
  transport: TestLineTransport,
  callerDone: Promise<CallerReport>,
  live: Awaited<ReturnType<AppContext["calls"]["startLiveCall"]>>,
): Promise<void> {
  transport.attach(live);
  const limit = setTimeout(() => transport.hangUp(), callLimitMs(deps.assistant));
  const cancel = () => void live.hangup("removed");
  deps.cancelled.addEventListener("abort", cancel);
  if (deps.cancelled.aborted) cancel();
  // A caller that stops on its own (its model failed) has nothing more to say: the call ends.
  void callerDone.then(
    () => transport.hangUp(),
    () => transport.hangUp(),
  );
  transport.startCaller();
  try {
    await transport.closed;
  } finally {
    clearTimeout(limit);
    deps.cancelled.removeEventListener("abort", cancel);
  }
}

/** The call's log once the call runtime has closed it. */
async function finalLog(ctx: AppContext, tenant: TenantScope, callId: string): Promise<CallLog> {
  const deadline = Date.now() + FINAL_LOG_WAIT_MS;
  for (;;) {
    const log = await ctx.calls.state.get(tenant, callId);
    if (log.status === "completed" || log.status === "failed") return log;
    if (Date.now() > deadline)
      throw new Error(`the call log was still ${log.status} ${FINAL_LOG_WAIT_MS / 1000} s after the call ended`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Events of the call's log a result shows beside its caller's turns: how the assistant met keys, barge-ins and faults. */
const SHOWN_EVENTS = new Set<CallLogEvent["type"]>([
  "dtmf",
  "interruption",
  "transfer",
  "fault",
  "tool_skipped",
  "ended",
]);

/** The caller's turns, timed on the call's clock (`offsetMs`: where the caller started in it). */
function callerTurns(report: CallerReport, offsetMs: number): CallerTurn[] {
  const onCall = (ms: number) => Math.round(ms + offsetMs);
  return report.turns.map((t) => ({
    turn: t.turn,
    text: t.text,
    dtmf: t.dtmf,
    silent: t.silent,
    interrupted: t.interrupted,
    started_at_ms: onCall(t.startedAtMs),
    speech_ended_at_ms: t.speechEndedAtMs === null ? null : onCall(t.speechEndedAtMs),
  }));
}

async function judged(
  deps: TestCallDeps,
  expectations: Expectation[],
  call: Parameters<typeof judgeExpectations>[1],
  callerOffsetMs: number,
): Promise<ResultEnd> {
  const what = {
    figures: callFigures(call) satisfies TestCallFigures,
    callerTurns: callerTurns(call.caller, callerOffsetMs),
    callEvents: call.log.events.filter((e) => SHOWN_EVENTS.has(e.type)),
  };
  if (call.caller.end === "failed") {
    return {
      status: "error",
      error: `The simulated caller failed: ${call.caller.error ?? "no reason given"}`,
      ...what,
    };
  }
  try {
    const verdicts = await judgeExpectations(expectations, call, deps.judge);
    return { status: verdicts.every((v) => v.passed) ? "passed" : "failed", verdicts, ...what };
  } catch (error) {
    if (!(error instanceof JudgeError)) throw error;
    return { status: "error", error: error.message, ...what };
  }
}
