import type { RealtimeServerMessage } from "@parley/contract";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { CallMetrics } from "./call-metrics.ts";

/** What the live-call code needs from the running server. */
export interface CallsRuntime {
  ctx: AppContext;
  metrics: CallMetrics;
  log: FastifyBaseLogger;
}

/** One caller's connection, whatever carries it (the browser WebSocket today). */
export interface CallTransport {
  send(message: RealtimeServerMessage): void;
  /** 20 ms of assistant audio, 16-bit mono PCM at 16 kHz. */
  sendAudio(pcm: Int16Array): void;
  close(code: number, reason: string): void;
}
