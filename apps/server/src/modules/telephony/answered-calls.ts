import type { TelephonyAccount } from "@parley/engine";
import type { CallRecord } from "../calls/runtime.ts";

/**
 * Phone calls this process answered and whose media stream has not started yet: the voice webhook
 * already read the call and resolved its number's account, so a stream landing here starts the call
 * without reading either again. A stream landing on another process reads them from the database.
 */
export interface AnsweredCall {
  call: CallRecord;
  account: TelephonyAccount;
}

const waiting = new Map<string, AnsweredCall>();

/** Kept until its stream takes it, or for `ttlMs` (the room's own wait for the stream). */
export function rememberAnswered(answered: AnsweredCall, ttlMs: number): void {
  waiting.set(answered.call.id, answered);
  setTimeout(() => {
    if (waiting.get(answered.call.id) === answered) waiting.delete(answered.call.id);
  }, ttlMs).unref();
}

export function takeAnswered(callId: string): AnsweredCall | undefined {
  const answered = waiting.get(callId);
  waiting.delete(callId);
  return answered;
}
