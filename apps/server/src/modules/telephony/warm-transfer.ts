import { randomUUID } from "node:crypto";
import type { ConferenceControl, TelephonyAccount, TelephonyCallStatus } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import { failureFields } from "../../lib/log-options.ts";
import { BRIEFING_PARAMETER, type BriefingStream, expectBriefingStream } from "./briefing-stream.ts";
import type { PhoneLegRef } from "./phone-leg.ts";

/** How long the human's phone rings before the vendor gives up. */
export const BRIEFING_RING_SECONDS = 30;
/** Past the ring time, how long Parley waits for an answered leg's stream before it gives up too. */
const STREAM_GRACE_MS = 15_000;
/** How often the human's call status is looked at while it rings. */
const STATUS_POLL_MS = 1_000;

/** What the caller hears when the human does not answer (Parley's stream is gone by then). */
export const WARM_TRANSFER_TEXTS = {
  unanswered: "Sorry, nobody is available to take your call right now. Please try again later. Goodbye.",
} as const;

/** A warm destination: where to, and what the assistant tells the human before connecting. */
export interface WarmTransferPlan {
  destination: { name: string; number: string };
  /** The briefing's text (the destination's own, or a summary of the call so far). */
  briefing: string;
}

/** How a warm transfer went, for the call log. Times are ISO 8601. */
export interface WarmTransferRecord {
  mode: "warm";
  destination: { name: string; number: string };
  /** The human's call (the vendor's id), when it was placed. */
  human_call_id: string | null;
  /** When the caller was put on hold in the conference. */
  held_at: string;
  /** When the briefing had been played to the human (null: not briefed). */
  briefed_at: string | null;
  /** When the human joined the caller (null: never connected). */
  connected_at: string | null;
  outcome: "connected" | "unanswered" | "failed";
  /** The human's call status when it was not answered (busy, no-answer…), or the failure's text. */
  detail: string | null;
}

/** What a warm transfer needs from the rest of the server. */
export interface WarmTransferDeps {
  /** The warm plan for a destination number; null when it is a cold one. */
  planFor(number: string): Promise<WarmTransferPlan | null>;
  /** The assistant's voice saying `text`, as 16 kHz PCM. */
  speak(text: string): Promise<Int16Array>;
  /** Keeps the transfer's outcome with the call (its log). */
  record(record: WarmTransferRecord): Promise<void>;
  /** wss URL of the vendor's media stream route (the briefing leg streams there). */
  streamUrl: string;
  now(): Date;
}

const FINAL: ReadonlySet<TelephonyCallStatus> = new Set(["completed", "busy", "no-answer", "failed", "canceled"]);

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Resolves with the call's final status once it has one (it never answered), polling its status. */
async function unansweredStatus(
  conference: ConferenceControl,
  account: TelephonyAccount,
  callId: string,
  stop: AbortSignal,
): Promise<string> {
  while (!stop.aborted) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, STATUS_POLL_MS);
      stop.addEventListener("abort", () => {
        clearTimeout(timer);
        resolve();
      });
    });
    if (stop.aborted) break;
    const status = await conference.callStatus(account, callId).catch(() => null);
    if (status && FINAL.has(status)) return status;
  }
  return "canceled";
}

/** The briefing leg's stream, or the reason the human never got on the line. */
async function humanAnswers(
  conference: ConferenceControl,
  account: TelephonyAccount,
  callId: string,
  stream: Promise<BriefingStream>,
): Promise<BriefingStream | string> {
  const stop = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve("no-answer"), BRIEFING_RING_SECONDS * 1000 + STREAM_GRACE_MS);
  });
  try {
    return await Promise.race([stream, unansweredStatus(conference, account, callId, stop.signal), timeout]);
  } finally {
    stop.abort();
    clearTimeout(timer);
  }
}

/**
 * One warm transfer over a vendor's conferences: the caller's leg moves into a conference named for
 * this transfer (hold music), Parley dials the human with markup that streams to Parley, the
 * assistant's voice plays the briefing on that stream, then the human's leg moves into the same
 * conference and Parley is on neither leg. If the human does not answer (busy, no answer, failed),
 * the caller hears a short apology in the vendor's voice and the call ends: the assistant's session
 * is over by then (the engine ended it as transferred), so handing the caller back would need a new
 * one. Throws only when the caller could not be put on hold (then nothing changed for them).
 */
export async function runWarmTransfer(
  conference: ConferenceControl,
  account: TelephonyAccount,
  leg: PhoneLegRef,
  plan: WarmTransferPlan,
  deps: WarmTransferDeps,
  log: FastifyBaseLogger,
): Promise<WarmTransferRecord> {
  const name = `parley-${randomUUID()}`;
  // Synthesis starts at once: the briefing is ready by the time the human picks up.
  const audio = deps.speak(plan.briefing);
  audio.catch(() => undefined);
  await conference.holdInConference(account, { providerCallId: leg.providerCallId, conference: name });
  const record: WarmTransferRecord = {
    mode: "warm",
    destination: plan.destination,
    human_call_id: null,
    held_at: deps.now().toISOString(),
    briefed_at: null,
    connected_at: null,
    outcome: "failed",
    detail: null,
  };
  const expected = expectBriefingStream();
  let stream: BriefingStream | null = null;
  try {
    const humanCallId = await conference.dialForBriefing(account, {
      from: leg.ourNumber,
      to: plan.destination.number,
      streamUrl: deps.streamUrl,
      parameters: { [BRIEFING_PARAMETER]: expected.id },
      statusUrl: leg.statusUrl,
      timeoutSeconds: BRIEFING_RING_SECONDS,
    });
    record.human_call_id = humanCallId;
    const answered = await humanAnswers(conference, account, humanCallId, expected.stream);
    if (typeof answered === "string") {
      record.outcome = "unanswered";
      record.detail = answered;
    } else {
      stream = answered;
      if (await stream.play(await audio)) record.briefed_at = deps.now().toISOString();
      // A caller who hung up while on hold has ended the conference: the human is let go instead.
      const caller = await conference.callStatus(account, leg.providerCallId).catch(() => null);
      if (caller && FINAL.has(caller)) {
        record.detail = "The caller hung up before the transfer was connected.";
        return await finish(record, deps, log);
      }
      await conference.joinConference(account, { providerCallId: humanCallId, conference: name });
      record.connected_at = deps.now().toISOString();
      record.outcome = "connected";
    }
  } catch (error) {
    record.outcome = "failed";
    record.detail = describe(error);
    log.warn({ provider: leg.provider, ...failureFields(error) }, "warm transfer failed");
  } finally {
    expected.cancel();
    stream?.close();
  }
  if (record.outcome !== "connected") {
    await conference
      .sayAndHangup(account, leg.providerCallId, WARM_TRANSFER_TEXTS.unanswered)
      .catch((error: unknown) =>
        log.error({ provider: leg.provider, ...failureFields(error) }, "could not release the held caller"),
      );
  }
  return finish(record, deps, log);
}

async function finish(record: WarmTransferRecord, deps: WarmTransferDeps, log: FastifyBaseLogger) {
  await deps.record(record).catch((error: unknown) => log.warn({ err: error }, "could not record the warm transfer"));
  return record;
}
