import type { CallForStream } from "../call-logs/service.ts";
import { findCallByCarrierId } from "../call-logs/service.ts";
import type { CallsRuntime } from "../calls/runtime.ts";

const LOOKUP_TRIES = 10;
const LOOKUP_PAUSE_MS = 200;

/**
 * A placed call by its carrier id. The carrier may call back (ringing, answered) before the
 * request that placed the call has stored the id it got, so a miss is retried for about two
 * seconds before it counts as unknown.
 */
export async function findPlacedCall(rt: CallsRuntime, provider: string, providerCallId: string) {
  for (let attempt = 0; ; attempt += 1) {
    const found = await findCallByCarrierId(rt.ctx.db, provider, providerCallId);
    if (found || attempt >= LOOKUP_TRIES) return found;
    await new Promise((resolve) => setTimeout(resolve, LOOKUP_PAUSE_MS));
  }
}

export type { CallForStream };
