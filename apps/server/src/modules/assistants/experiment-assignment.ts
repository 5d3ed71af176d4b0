import { createHash } from "node:crypto";
import { EXPERIMENT_CALL_CHANNELS, type ExperimentChannel } from "@parley/contract";
import type { CallRequest } from "../../lib/call-runtime.ts";

/** Buckets per experiment: a percentage is 100 of them, so a split is exact to 0.01 %. */
export const BUCKETS = 10_000;

/**
 * A caller's bucket in an experiment: the same caller always lands in the same one for the
 * experiment's life (sticky without storing anything), and another experiment shuffles callers
 * anew (its id is in the hash).
 */
export function bucketOf(experimentId: string, callerKey: string): number {
  const digest = createHash("sha256").update(`${experimentId}:${callerKey}`).digest();
  return digest.readUInt32BE(0) % BUCKETS;
}

/** The variant whose share of buckets holds `bucket`, variants taking their shares in order. */
export function variantAt<V extends { percent: number }>(variants: V[], bucket: number): V | undefined {
  let end = 0;
  for (const variant of variants) {
    end += variant.percent * (BUCKETS / 100);
    if (bucket < end) return variant;
  }
  return variants.at(-1);
}

/**
 * Who the caller is, for assignment: the other party's number on a call that has one (the caller
 * inbound, the callee outbound); else the key its channel gives (the signed-in user of a browser
 * call, a widget's visitor); else the call's own id (assigned afresh each call).
 */
export function callerKeyOf(request: CallRequest, callId: string): string {
  const party = request.direction === "outbound" ? request.to : request.from;
  return party ?? request.callerKey ?? callId;
}

/** Whether an experiment over `channel` covers the call. */
export function coversCall(channel: ExperimentChannel, request: CallRequest): boolean {
  if (channel === "all") return request.channel !== "test";
  if (channel === "campaign") return Boolean(request.batchCallId);
  return EXPERIMENT_CALL_CHANNELS[channel] === request.channel && !request.batchCallId;
}
