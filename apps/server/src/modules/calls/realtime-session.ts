import { type AssistantFields, providerLabel, type RealtimeConfig, realtimeIntegration } from "@parley/contract";
import {
  type CallEvent,
  type CallSession,
  type CallSink,
  type CallSummary,
  MissingCredentialError,
  RealtimeCallSession,
  type RealtimeCallSessionOptions,
  type RealtimeModelSettings,
  type RealtimeUsage,
} from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { resolveCredentials } from "../integrations/credentials.ts";
import { requireRoutingKey } from "./realtime-workflow.ts";

/**
 * Speech-to-speech calls (issue 32): what the server needs to run a call on a realtime model
 * instead of the transcriber → model → voice pipeline, and the fallback to that pipeline when the
 * model cannot be reached at the start of the call.
 */

/** Whether the assistant's calls run on its speech-to-speech model. */
export function runsRealtime(assistant: Pick<AssistantFields, "engine_mode">): boolean {
  return assistant.engine_mode === "realtime";
}

/** The engine's settings of the assistant's realtime model (the contract's snake_case block). */
export function realtimeModelSettings(config: RealtimeConfig): RealtimeModelSettings {
  const language = config.language ? { language: config.language } : {};
  if (config.provider === "gemini-live") {
    const detection = config.turn_detection;
    return {
      provider: "gemini-live",
      model: config.model,
      voice: config.voice,
      turnDetection: {
        ...(detection.start_sensitivity ? { startSensitivity: detection.start_sensitivity } : {}),
        ...(detection.end_sensitivity ? { endSensitivity: detection.end_sensitivity } : {}),
        ...(detection.prefix_padding_ms !== null ? { prefixPaddingMs: detection.prefix_padding_ms } : {}),
        ...(detection.silence_duration_ms !== null ? { silenceDurationMs: detection.silence_duration_ms } : {}),
      },
      inputTranscription: config.input_transcription,
      ...language,
    };
  }
  const detection = config.turn_detection;
  return {
    provider: "openai-realtime",
    model: config.model,
    voice: config.voice,
    turnDetection:
      detection.type === "server_vad"
        ? {
            type: "server_vad",
            threshold: detection.threshold,
            prefixPaddingMs: detection.prefix_padding_ms,
            silenceDurationMs: detection.silence_duration_ms,
          }
        : { type: "semantic_vad", eagerness: detection.eagerness },
    inputTranscriptionModel: config.transcription_model,
    ...language,
  };
}

/** The key (and API origin) the realtime model is reached with: its vendor's integration. */
export interface RealtimeAccess {
  apiKey: string;
  /** The integration's base URL as a WebSocket origin (a proxy or a local double); the vendor's when absent. */
  baseUrl?: string;
}

/**
 * The workspace's (or the server's) key of the vendor whose realtime model the assistant uses (its
 * descriptor has the realtime stage). A missing key fails as the pipeline's does: the engine's
 * MissingCredentialError, a 409 naming the key and the Integrations page at the call's start.
 */
export async function realtimeAccess(
  ctx: AppContext,
  workspaceId: string,
  config: RealtimeConfig,
): Promise<RealtimeAccess> {
  const integration = realtimeIntegration(config.provider);
  const credentials = await resolveCredentials(ctx, workspaceId, integration);
  const apiKey = credentials?.api_key?.trim();
  if (!apiKey) {
    const detail = `No API key for ${providerLabel(integration)}. Add one on the Integrations page.`;
    throw new MissingCredentialError(integration, integration, "api_key", detail);
  }
  const base = credentials?.base_url?.trim();
  // The integration's URL is http(s) (the Integrations page checks it); the Realtime API is its WebSocket.
  return { apiKey, ...(base ? { baseUrl: base.replace(/^http/i, "ws") } : {}) };
}

/**
 * Refuses a realtime call whose vendor key is missing (the 409 of POST /agents/{id}/call), or,
 * with a workflow, whose pipeline model (the workflow's routing model) has no key.
 */
export async function requireRealtimeKey(ctx: AppContext, workspaceId: string, assistant: AssistantFields) {
  await realtimeAccess(ctx, workspaceId, assistant.realtime);
  await requireRoutingKey(ctx, workspaceId, assistant);
}

export interface RealtimeCallOptions extends Omit<RealtimeCallSessionOptions, "sink"> {
  sink: CallSink;
  /**
   * The assistant's pipeline session, built when the model could not be reached at the start;
   * null when the pipeline cannot be set up either (the call then ends with the model's error).
   */
  fallback: () => Promise<CallSession | null>;
  log: { warn(obj: object, msg: string): void };
}

/**
 * A call on the assistant's realtime model that falls back to its pipeline when the model refuses
 * or cannot be reached before the call has begun (a `ProviderError` from the connection: a wrong
 * key, the vendor down). What the failed model session said until then (listening, its fault, its
 * end) is held back; the call's log shows one fault with the action "fallback" instead. A fault
 * once the call runs ends it with `assistant_error` as the realtime session does: the caller has
 * heard the model's voice, and a pipeline taking over mid-sentence with another voice is worse.
 */
export class RealtimeCall implements CallSession {
  readonly done: Promise<CallSummary>;
  private resolveDone!: (summary: CallSummary) => void;
  private rejectDone!: (error: unknown) => void;
  private readonly realtime: RealtimeCallSession;
  private active: CallSession;
  /** Events of the realtime session held until it is known to have connected. */
  private held: CallEvent[] | null = [];
  private connectFault: Extract<CallEvent, { type: "fault" }> | null = null;
  private readonly listeners: ((pcm: Int16Array) => void)[] = [];
  private fellBack = false;

  constructor(private readonly options: RealtimeCallOptions) {
    this.done = new Promise((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    const { fallback: _f, log: _l, sink, ...session } = options;
    this.realtime = new RealtimeCallSession({
      ...session,
      sink: {
        onEvent: (event) => {
          if (!this.held) return sink.onEvent(event);
          if (event.type === "fault" && event.action === "gave_up") this.connectFault = event;
          this.held.push(event);
        },
      },
    });
    this.active = this.realtime;
  }

  /** The model's tokens by modality; null when the call fell back to the pipeline (metered there). */
  get usage(): RealtimeUsage | null {
    return this.fellBack ? null : this.realtime.usage;
  }

  async start(): Promise<void> {
    await this.realtime.start();
    const held = this.held ?? [];
    this.held = null;
    const fault = this.connectFault;
    const fallback = fault ? await this.pipeline(fault) : null;
    if (!fault || !fallback) {
      for (const event of held) this.options.sink.onEvent(event);
      this.realtime.done.then(this.resolveDone, this.rejectDone);
      return;
    }
    this.fellBack = true;
    this.active = fallback;
    for (const listener of this.listeners) fallback.onAudio(listener);
    this.options.sink.onEvent({ ...fault, action: "fallback" });
    fallback.done.then(
      (summary) =>
        this.resolveDone({ ...summary, faults: [{ ...this.strip(fault), action: "fallback" }, ...summary.faults] }),
      this.rejectDone,
    );
    await fallback.start();
  }

  /** The pipeline session to fall back to, or null (none configured, or it could not be set up). */
  private async pipeline(fault: Extract<CallEvent, { type: "fault" }>): Promise<CallSession | null> {
    const fields = { callId: this.options.callId, provider: fault.provider, error: fault.error };
    try {
      const session = await this.options.fallback();
      if (session)
        this.options.log.warn(
          fields,
          "the realtime model could not be reached; the call runs on the assistant's pipeline",
        );
      return session;
    } catch (error) {
      this.options.log.warn(
        { ...fields, fallbackError: error instanceof Error ? error.message : String(error) },
        "the realtime model could not be reached and the assistant's pipeline could not be set up; the call ends",
      );
      return null;
    }
  }

  private strip(fault: Extract<CallEvent, { type: "fault" }>) {
    const { type: _type, ...rest } = fault;
    return rest;
  }

  pushAudio(pcm: Int16Array): void {
    this.active.pushAudio(pcm);
  }

  pushDtmf(digit: string): void {
    this.active.pushDtmf(digit);
  }

  pushText(text: string): void {
    this.active.pushText(text);
  }

  onAudio(listener: (pcm: Int16Array) => void): void {
    this.listeners.push(listener);
    this.active.onAudio(listener);
  }

  switchAssistant(change: Parameters<CallSession["switchAssistant"]>[0]): Promise<void> {
    return this.active.switchAssistant(change);
  }

  async hangup(reason: Parameters<CallSession["hangup"]>[0]): Promise<void> {
    await this.active.hangup(reason);
    await this.done;
  }
}
