import type { MediaStreamTransport } from "./media-transport.ts";

/**
 * The transports of the phone calls this process runs, by call id: a reconnecting stream finds its
 * call here, and a status callback saying the carrier ended a call tells its transport so.
 */
export const runningCalls = new Map<string, MediaStreamTransport>();

/**
 * The carrier reported the call over (its status callback said completed or failed): the call's
 * end then sends no hang-up request for a call the carrier no longer has. A call this process does
 * not run is left alone (its own process hears the stream stop).
 */
export function carrierEnded(callId: string): void {
  runningCalls.get(callId)?.carrierEnded();
}
