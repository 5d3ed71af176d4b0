import { type Assistant, type CallEndReason, REALTIME_CLOSE_CODES, type VersionLinks } from "@parley/contract";
import {
  type CallEvent,
  type CallSession,
  type CallSummary,
  createCallSession,
  type EndReason,
  endedInFailure,
  type Handoffs,
  type LlmProvider,
  type RealtimeUsage,
  reportedEndReason,
} from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import type { CallOrigin, CallTransport, LiveCall, Participant, Room } from "../../lib/call-runtime.ts";
import { findCallRun } from "../assistants/call-assistant.ts";
import {
  type CallOutcome,
  createRecordingFile,
  finishCallLog,
  markCallInProgress,
  type RecordingFile,
  saveCallProgress,
} from "../call-logs/service.ts";
import { findCallSquad } from "../squads/call-squads.ts";
import type { CallWorkflow } from "../workflows/call-workflow.ts";
import { assistantTools, type BuiltAssistant, buildAssistant, callSettingsFor } from "./assistant-parts.ts";
import { callCost, withModelTokens } from "./call-cost.ts";
import type { CallDeps } from "./call-deps.ts";
import { keepsMetadataOnly, maskedWorkflowRecord, metadataOnly } from "./call-privacy.ts";
import { ProgressSaver } from "./call-progress.ts";
import { CallSegments } from "./call-segments.ts";
import { CallTimeline } from "./call-timeline.ts";
import type { CallTrace } from "./call-traces.ts";
import { announceHandoff } from "./handoff-event.ts";
import { realtimeCallCost } from "./realtime-cost.ts";
import { toServerMessage } from "./realtime-messages.ts";
import { realtimeSquadCost } from "./realtime-segments.ts";
import { RealtimeCall, realtimeAccess, realtimeModelSettings } from "./realtime-session.ts";
import { realtimeWorkflow, routingModel, withCallerTranscript } from "./realtime-workflow.ts";
import { callerContext, WEB_ORIGIN } from "./runtime.ts";
import { SquadCall } from "./squad-handoffs.ts";

/** How long a failing call may take to wind down before its log is closed anyway. */
const WIND_DOWN_MS = 5_000;

/**
 * The sample rate of the caller's line, for transports that say (a phone stream's μ-law, SIP's
 * G.711: 8000), so the caller's wait ends with the first reply frame audible on that line.
 */
function lineRateOf(transport: CallTransport): number | undefined {
  return "lineRate" in transport && typeof transport.lineRate === "number" ? transport.lineRate : undefined;
}

/**
 * Calls that end together take turns: each ending (the engine's wind-down, the recording's last
 * audio, the transport's close, the log's start) runs in its own turn of the event loop, with
 * requests and the other calls' audio served in between. Ending one call costs ≈1 ms of the main
 * thread; 50 hanging up in the same instant were one stall of 50 ms and more (several times that on
 * a busy machine), which every live call heard.
 */
class EndingTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** Resolves in a turn of the event loop of its own, after the endings that asked before. */
  take(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) this.schedule();
    });
  }

  private schedule(): void {
    this.scheduled = true;
    // setImmediate after the poll phase: the I/O that arrived meanwhile is served first.
    setImmediate(() => {
      this.waiting.shift()?.();
      if (this.waiting.length > 0) this.schedule();
      else this.scheduled = false;
    });
  }
}

const endingTurns = new EndingTurns();

/**
 * The engine's word for a reason the server ends a call with. The fault outcomes are the engine's
 * to report, never asked for from outside; were one passed, the call ends as a removal.
 */
function engineReason(reason: Exclude<CallEndReason, "server_shutdown" | "not_joined">): EndReason {
  switch (reason) {
    case "tool_timeout":
    case "tool_error":
    case "fallback_used":
      return "removed";
    default:
      return reason;
  }
}

/** The words an operator reads in a fault's log line. */
const STAGE_NAMES = { llm: "model", stt: "transcriber", tts: "voice", tool: "tool" } as const;
const ACTION_NAMES = {
  retried: "retried",
  fallback: "moved to the next provider",
  recovered: "the caller heard the recovery line and the turn was retried",
  skipped: "skipped",
  gave_up: "gave up and ended the call",
} as const;

const withTimeout = <T>(promise: Promise<T>, ms: number): Promise<T | null> =>
  Promise.race([promise, new Promise<null>((resolve) => setTimeout(() => resolve(null), ms).unref())]);

/**
 * Joins a caller to a room's call: builds the assistant's providers and tools, starts the engine
 * session, streams its events and audio to the transport, and writes the call log when it ends.
 * Rejects (after closing the log as failed) when the call cannot start. `origin` says where the
 * caller is (a browser unless given): the model is told, the metrics are labelled and the carrier's
 * minutes are priced from it.
 */
export async function startLiveCall(
  rt: CallDeps,
  room: Room,
  caller: Participant,
  transport: CallTransport,
  origin: CallOrigin = WEB_ORIGIN,
): Promise<LiveCall> {
  if (room.joinTimer) clearTimeout(room.joinTimer);
  room.joinTimer = null;
  room.participants.set(caller.identity, caller);
  const call = new CallRun(rt, room, transport, origin);
  await call.start();
  return call;
}

class CallRun implements LiveCall {
  private session: CallSession | null = null;
  private assistant: Assistant | undefined;
  private readonly startedAt: Date;
  private readonly timeline: CallTimeline;
  private endSent = false;
  /** Resolves once the session has ended and the log is written. */
  private sessionEnded: Promise<void> | null = null;
  private finishing: Promise<void> | null = null;
  /** A reason the engine has no word for (server shutdown), kept for the log. */
  private serverReason: CallEndReason | null = null;
  /** Every assistant built for the call (the first, and each a hand-off prepared): their tools close at the end. */
  private readonly built: BuiltAssistant[] = [];
  /** A hangup asked for while the call was still starting, applied once it has started. */
  private pendingHangup: CallEndReason | null = null;
  /** Where the recording streams, when the assistant records. */
  private recordingFile: RecordingFile | null = null;
  private readonly progress: ProgressSaver;
  /** The assistant's published workflow, when it has one: its path and variables go into the log. */
  private workflow: CallWorkflow | null = null;
  /** Which assistant ran which stretch, with what each used of its model and voice (its cost). */
  private segments: CallSegments | null = null;
  /** The squad the call runs (issue 31); null for a call of one assistant. */
  private squad: SquadCall | null = null;
  /** The assistant running the call now (the first, or the last a hand-off switched to). */
  private current: BuiltAssistant | null = null;
  private readonly trace: CallTrace;
  /** The workspace keeps call metadata only (zero-retention): nothing said is saved, during the call or after. */
  private zeroRetention = false;
  /** The call's speech-to-speech session (issue 32); null on the pipeline. */
  private realtime: RealtimeCall | null = null;
  /** What a realtime call opened for its tools, closed with the call. */
  private readonly closers: (() => Promise<void>)[] = [];
  /** A realtime squad's model usage at each hand-off: each stretch is priced on what it used. */
  private readonly realtimeMarks: RealtimeUsage[] = [];
  /** A realtime call's pipeline model (a squad's summaries), before a hand-off builds the next member. */
  private realtimeLlm: LlmProvider | null = null;

  constructor(
    private readonly rt: CallDeps,
    private readonly room: Room,
    private readonly transport: CallTransport,
    private readonly origin: CallOrigin,
  ) {
    this.startedAt = rt.ctx.now();
    this.trace = rt.traces.startCall({
      callId: room.callId,
      workspaceId: room.workspaceId,
      agentId: room.agentId,
      channel: origin.channel,
    });
    this.timeline = new CallTimeline(() => rt.ctx.now().getTime() - this.startedAt.getTime());
    this.progress = new ProgressSaver(
      () =>
        saveCallProgress(rt.ctx.db, room, room.callId, {
          transcript: [...this.timeline.transcript.map((line) => ({ ...line }))],
          toolCalls: [...this.timeline.toolCalls],
          at: rt.ctx.now(),
        }),
      (error) => rt.log.warn({ callId: room.callId, err: error }, "could not save the call's progress"),
    );
  }

  async start(): Promise<void> {
    const { ctx, metrics } = this.rt;
    const { room } = this;
    metrics.callStarted(this.origin.channel);
    room.call = { end: (reason) => this.hangup(reason) };
    try {
      const run = await findCallRun(ctx.db, room, room.agentId, room.callId);
      if (!run) throw new Error("The assistant of this call no longer exists.");
      this.assistant = run.assistant;
      this.zeroRetention = keepsMetadataOnly(await this.rt.privacySettings(room), this.origin.channel);
      const session = await this.createSession(run.assistant, run.links);
      this.session = session;
      await markCallInProgress(ctx.db, room, room.callId, this.startedAt);
      ctx.events.emit("call.started", {
        workspaceId: room.workspaceId,
        callId: room.callId,
        agentId: room.agentId,
        channel: this.origin.channel,
      });
      room.participants.set(`agent-${room.callId.slice(0, 8)}`, {
        identity: `agent-${room.callId.slice(0, 8)}`,
        name: this.assistant.name,
        kind: "agent",
        joinedAt: ctx.now(),
      });
      await session.start();
      // Watched only once started: a failed start is closed by abort() with its own close code.
      this.sessionEnded = session.done.then(
        (summary) => this.finish(summary),
        (error: unknown) => this.finish(this.failure(error)),
      );
      this.transport.send({ type: "ready", call_id: room.callId });
      if (this.pendingHangup) void this.hangup(this.pendingHangup);
    } catch (error) {
      await this.abort(error);
      throw error;
    }
  }

  /**
   * `links`: what the call's assistant version was published with, in place of the live links
   * (issue 30). A call that runs a squad starts at its member and gets that member's hand-offs.
   */
  private async createSession(assistant: Assistant, links: VersionLinks): Promise<CallSession> {
    const { ctx } = this.rt;
    const { room } = this;
    const log = this.rt.log.child({ callId: room.callId });
    const calling = await findCallSquad(ctx.db, room, room.callId);
    this.segments = new CallSegments({ assistant, member: calling?.start.name ?? null });
    const baseContext = callerContext(this.origin);
    if (calling) {
      this.squad = new SquadCall(this.rt, room, calling.squad, calling.start, {
        baseContext,
        build: async (next) => this.keep(await buildAssistant(this.rt, room, { ...next, links: {} }, log)),
        currentModel: () => this.currentModel(),
        currentAssistant: () => this.segments?.current.assistant ?? assistant,
        variables: () => ({ ...room.variables, ...this.workflowValues() }),
      });
    }
    const handoffs = calling ? this.squad?.handoffsOf(calling.start) : undefined;
    if (assistant.engine_mode === "realtime")
      return this.createRealtimeSession(assistant, links, { context: baseContext, handoffs }, log);
    const first = this.keep(
      await buildAssistant(
        this.rt,
        room,
        {
          assistant,
          links,
          usage: this.segments.usage,
          context: baseContext,
          handoffs,
        },
        log,
      ),
    );
    this.workflow = first.workflow;
    this.current = first;
    const { parts } = first;
    if (parts.settings.record)
      this.recordingFile = await createRecordingFile(ctx.config.dataDir, room.workspaceId, room.callId);
    const session = this.pipelineSession(first);
    session.onAudio((pcm) => this.transport.sendAudio(pcm));
    return session;
  }

  /** The transcriber → model → voice session of a built assistant. */
  private pipelineSession({ parts }: BuiltAssistant): CallSession {
    return createCallSession({
      ...parts,
      stt: parts.stt,
      callId: this.room.callId,
      sink: { onEvent: (event) => this.onEvent(event) },
      recording: this.recordingFile?.sink,
      // Every channel's caller audio is a real-time stream (browser socket, carrier stream, RTP, WebRTC).
      streamedCallerAudio: true,
      lineRate: lineRateOf(this.transport),
    });
  }

  /**
   * The other kind of session (issue 32, realtime-session.ts): the assistant's speech-to-speech
   * model with its tools, falling back to its pipeline when the model cannot be reached at the start.
   */
  private async createRealtimeSession(
    assistant: Assistant,
    links: VersionLinks,
    { context, handoffs }: { context: string; handoffs: Handoffs | undefined },
    log: FastifyBaseLogger,
  ): Promise<CallSession> {
    const { ctx } = this.rt;
    const { room } = this;
    const settings = await callSettingsFor(this.rt, room, assistant);
    const access = await realtimeAccess(ctx, room.workspaceId, assistant.realtime);
    const tools = await assistantTools(this.rt, room, assistant, links, log);
    this.closers.push(tools.close);
    for (const failure of tools.failures) this.timeline.add({ type: "error", message: failure });
    if (settings.record)
      this.recordingFile = await createRecordingFile(ctx.config.dataDir, room.workspaceId, room.callId);
    const usage = this.segments?.usage;
    // A workflow is routed, and a squad's summary written, by the assistant's pipeline model.
    const workflow = usage ? await realtimeWorkflow(ctx, room, assistant, settings, usage, links) : null;
    if (workflow) this.closers.push(() => workflow.close());
    this.workflow = workflow;
    if (this.squad && usage)
      this.realtimeLlm = await routingModel(ctx, room.workspaceId, settings).then(
        (llm) => usage.wrapModel(llm),
        () => null,
      );
    const session = new RealtimeCall({
      settings,
      realtime: realtimeModelSettings(workflow ? withCallerTranscript(assistant.realtime) : assistant.realtime),
      ...access,
      net: ctx.network,
      tools: tools.runner,
      context,
      workflow: workflow?.runner,
      handoffs,
      callId: room.callId,
      sink: { onEvent: (event) => this.onEvent(event) },
      recording: this.recordingFile?.sink,
      fallback: async () => {
        if (!usage) return null;
        const built = this.keep(
          await buildAssistant(this.rt, room, { assistant, links, usage, context, handoffs }, log),
        );
        this.workflow = built.workflow;
        this.current = built;
        return this.pipelineSession(built);
      },
      log,
    });
    this.realtime = session;
    session.onAudio((pcm) => this.transport.sendAudio(pcm));
    return session;
  }

  /** Keeps an assistant built for the call, so what it opened is closed with the call. */
  private keep(built: BuiltAssistant): BuiltAssistant {
    this.built.push(built);
    for (const failure of built.toolFailures) this.timeline.add({ type: "error", message: failure });
    return built;
  }

  /** The running assistant's model (a hand-off's summary is written with it). */
  private currentModel() {
    const current = this.current ?? this.built[0];
    if (current) return current.parts.llm;
    if (this.realtimeLlm) return this.realtimeLlm;
    throw new Error("the call has no assistant");
  }

  /** The values the call's workflow has collected so far (a "variables" carry-over reads them). */
  private workflowValues(): Record<string, string> {
    const values = this.workflow?.record().variables ?? {};
    return Object.fromEntries(
      Object.entries(values).flatMap(([name, value]) =>
        value === null || value === undefined ? [] : [[name, String(value)]],
      ),
    );
  }

  /** The engine switched assistants: the next stretch of the call begins, and webhooks hear of it. */
  private onHandoff(event: Extract<CallEvent, { type: "handoff" }>): void {
    const taken = this.squad?.tookOver();
    if (!taken || !this.segments) return;
    const realtimeUsage = this.realtime?.usage;
    if (realtimeUsage) this.realtimeMarks.push({ ...realtimeUsage });
    this.segments.handOff(
      {
        assistant: taken.assistant,
        member: taken.member.name,
        from: taken.from,
        reason: taken.reason,
        usage: taken.usage,
      },
      event.atMs,
    );
    this.current = taken.built;
    this.workflow ??= taken.built.workflow;
    announceHandoff(this.rt.ctx.events, {
      workspaceId: this.room.workspaceId,
      callId: this.room.callId,
      agentId: taken.assistant.id,
      from: event.from,
      to: event.to,
      reason: event.reason,
      atMs: event.atMs,
    });
  }

  private onEvent(event: CallEvent): void {
    this.timeline.add(event);
    this.trace.event(event);
    if (event.type === "fault") this.logFault(event);
    if (event.type === "handoff") this.onHandoff(event);
    if (event.type === "turn_metrics") this.segments?.turn(event.metrics.voiceToVoiceMs);
    if (event.type === "transfer")
      this.rt.ctx.events.emit("call.transferred", {
        workspaceId: this.room.workspaceId,
        callId: this.room.callId,
        agentId: this.room.agentId,
        destination: event.destination.number,
      });
    // What was said is saved as it is said, so a crash keeps it (never under zero-retention).
    const said = (event.type === "transcript" && event.final) || event.type === "tool_call";
    if (said && !this.zeroRetention) this.progress.mark();
    const turn = event.type === "turn_metrics" ? this.timeline.turnMetrics.at(-1) : undefined;
    if (turn) this.rt.metrics.turn(turn);
    this.transport.control?.(event, (problem) => this.timeline.add({ type: "error", message: problem }));
    const message = toServerMessage(event);
    if (!message || (message.type === "end" && this.endSent)) return;
    if (message.type === "end") this.endSent = true;
    this.transport.send(message);
  }

  /**
   * Every fault reaches the operator's log: a call that could go on at warn, one that gave up at
   * error, with what is needed to find it (call, workspace, assistant, provider) and the redacted error.
   */
  private logFault(fault: Extract<CallEvent, { type: "fault" }>): void {
    const { room } = this;
    const fields = {
      callId: room.callId,
      workspaceId: room.workspaceId,
      agentId: room.agentId,
      channel: this.origin.channel,
      stage: fault.stage,
      provider: fault.provider,
      kind: fault.kind,
      action: fault.action,
      error: fault.error,
    };
    const what = `${STAGE_NAMES[fault.stage]} ${fault.provider} failed (${fault.kind}): ${ACTION_NAMES[fault.action]}`;
    if (fault.action === "gave_up") this.rt.log.error(fields, what);
    else this.rt.log.warn(fields, what);
    this.rt.metrics.fault(fault.stage, fault.provider, fault.action);
  }

  pushAudio(pcm: Int16Array): void {
    this.session?.pushAudio(pcm);
  }

  pushText(text: string): void {
    this.session?.pushText(text);
  }

  pushDtmf(digit: string): void {
    this.session?.pushDtmf(digit);
  }

  async hangup(reason: CallEndReason): Promise<void> {
    const session = this.session;
    if (!session || !this.sessionEnded) {
      this.pendingHangup ??= reason;
      return;
    }
    await endingTurns.take();
    // The engine knows its own reasons; a shutdown ends the call like a removal would.
    if (reason === "server_shutdown" || reason === "not_joined") {
      this.serverReason = reason;
      await session.hangup("removed");
    } else {
      await session.hangup(engineReason(reason));
    }
    await this.sessionEnded;
  }

  private failure(error: unknown): CallSummary {
    const message = error instanceof Error ? error.message : String(error);
    this.timeline.add({ type: "error", message });
    const durationMs = this.rt.ctx.now().getTime() - this.startedAt.getTime();
    return { reason: "error", durationMs, faults: [], recording: null };
  }

  /**
   * The call could not start: tell the caller why, then close the log as failed. A session that
   * started has logged its own error; before that, the log reads as the engine's would.
   */
  private async abort(error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    this.rt.log.warn({ callId: this.room.callId, err: error }, "call failed to start");
    this.transport.send({ type: "error", message });
    const summary = this.session ? await withTimeout(this.endSession(), WIND_DOWN_MS) : null;
    await this.finish(summary ?? this.failure(`Call could not start: ${message}`), REALTIME_CLOSE_CODES.startFailed);
  }

  /** A session whose start failed has ended itself (or ends now); its summary carries the duration. */
  private async endSession(): Promise<CallSummary> {
    const session = this.session as CallSession;
    await session.hangup("error").catch(() => undefined);
    return session.done;
  }

  /** Writes the log once, frees the room and closes the transport. */
  private finish(summary: CallSummary, closeCode = 1000): Promise<void> {
    if (!this.finishing) {
      const persisting = this.persist(summary, closeCode);
      this.finishing = persisting;
      this.rt.persisting.add(persisting);
      const done = () => void this.rt.persisting.delete(persisting);
      void persisting.then(done, done);
    }
    return this.finishing;
  }

  private async persist(summary: CallSummary, closeCode: number): Promise<void> {
    await endingTurns.take();
    const { ctx, rooms, metrics, log } = this.rt;
    const { room } = this;
    const ended = this.serverReason ?? summary.reason;
    // A fault the call survived is its reported outcome; how it ended stays in its events.
    const reason = reportedEndReason(ended, summary.faults);
    if (reason !== ended) this.timeline.events.push({ type: "ended", reason: ended, at_ms: summary.durationMs });
    const status = endedInFailure(ended) ? "failed" : "completed";
    this.trace.end({ reason, status, durationMs: summary.durationMs });
    rooms.remove(room);
    room.call = null;
    metrics.callEnded(this.origin.channel, status, reason);
    if (!this.endSent) {
      this.endSent = true;
      this.transport.send({ type: "end", reason });
    }
    this.transport.close(closeCode, reason);
    for (const built of this.built) {
      void built.close();
      void built.workflow?.close();
    }
    for (const close of this.closers) void close();
    const cost = this.costOf(summary.durationMs);
    try {
      await this.progress.settle();
      const recorded = await this.closeRecording();
      const outcome: CallOutcome = {
        status,
        endReason: reason,
        endedAt: new Date(this.startedAt.getTime() + summary.durationMs),
        durationSeconds: Math.round(summary.durationMs / 10) / 100,
        cost: cost?.cost ?? 0,
        costBreakdown: cost?.breakdown ?? null,
        transcript: this.timeline.transcript,
        toolCalls: this.timeline.toolCalls,
        turnMetrics: this.timeline.turnMetrics,
        events: this.timeline.events,
        recordingPath: recorded ? (this.recordingFile?.path ?? null) : null,
        workflow: this.workflowRecord(),
        segments: cost?.segments ?? null,
      };
      await finishCallLog(ctx.db, room, room.callId, this.zeroRetention ? metadataOnly(outcome) : outcome);
      ctx.events.emit("call.ended", {
        workspaceId: room.workspaceId,
        callId: room.callId,
        agentId: room.agentId,
        channel: this.origin.channel,
        status,
        durationSeconds: Math.round(summary.durationMs / 10) / 100,
      });
    } catch (error) {
      log.error({ callId: room.callId, err: error }, "could not save the call log");
    }
  }

  /** The workflow's record for the log, masked like the transcript when the workspace redacts PII. */
  private workflowRecord() {
    const record = this.workflow?.record() ?? null;
    const redacting = this.current?.parts.settings.piiRedaction.stored ?? false;
    return record && redacting ? maskedWorkflowRecord(record) : record;
  }

  /**
   * What the call cost: a squad's call priced stretch by stretch at each assistant's providers (its
   * segments for the log), a call of one assistant as a whole; null when it never started.
   */
  private costOf(durationMs: number) {
    const { segments, assistant } = this;
    if (!assistant || !segments) return null;
    const telephonyPerMinute = this.origin.telephonyPerMinute;
    const realtimeUsage = this.realtime?.usage;
    if (this.squad && realtimeUsage) {
      const { segments: stretches } = segments.close(durationMs, telephonyPerMinute);
      const options = { usage: realtimeUsage, durationMs, telephonyPerMinute };
      return realtimeSquadCost(assistant, stretches, this.realtimeMarks, options);
    }
    if (this.squad) return segments.close(durationMs, telephonyPerMinute);
    if (realtimeUsage) {
      const cost = realtimeCallCost(assistant, durationMs, { telephonyPerMinute, usage: realtimeUsage });
      // The workflow's routing requests, at the model lines' prices (as post-call analysis is added).
      const { llmInputTokens: input, llmOutputTokens: output } = segments.usage.usage();
      const routed = withModelTokens(cost.cost, cost.breakdown, { input, output });
      return { cost: routed.cost, breakdown: routed.breakdown ?? cost.breakdown, segments: null };
    }
    return {
      ...callCost(assistant, durationMs, { telephonyPerMinute, usage: segments.usage.usage() }),
      segments: null,
    };
  }

  /** Finishes the recording's file; false when nothing was recorded (or the file failed). */
  private async closeRecording(): Promise<boolean> {
    if (!this.recordingFile) return false;
    try {
      return (await this.recordingFile.close()) > 0;
    } catch (error) {
      this.rt.log.error({ callId: this.room.callId, err: error }, "could not finish the call's recording");
      return false;
    }
  }
}
