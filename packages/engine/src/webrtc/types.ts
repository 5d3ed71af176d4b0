import type { CallingEvent } from "../providers/calling-event.ts";
import type { NetworkDeps } from "../providers/types.ts";

export type { CallingEvent };

/**
 * Calls that reach Parley through a messaging platform's calling API: the platform posts a webhook
 * with the caller's SDP offer, Parley answers it over the platform's REST API and the audio flows
 * over WebRTC (Opus). A vendor folder implements this as the `calling` member of its adapters, so
 * the server drives such calls without naming the vendor.
 */

/** One business number on the platform and how to reach the platform's API for it. */
export interface CallingAccount {
  /** The API root with its version (a local double in tests). */
  apiUrl: string;
  accessToken: string;
  /** The platform's id of the business number. */
  numberId: string;
  net: NetworkDeps;
}

export type NumberProblem = "invalid_token" | "invalid_number_id" | "number_mismatch" | "unreachable";

/** What the platform says about a number's credentials. */
export type NumberCheck =
  | { ok: true; displayNumber: string; verifiedName: string | null }
  | { ok: false; problem: NumberProblem; message: string };

export interface CallingAdapter {
  /** Reads the number behind the credentials and checks it is `expectedE164`. */
  checkNumber(account: CallingAccount, expectedE164: string): Promise<NumberCheck>;
  /** Subscribes the app that owns the token to the business account's webhooks. */
  subscribeApp(account: CallingAccount, businessAccountId: string): Promise<void>;
  /** True when `signatureHeader` is the platform's signature of `rawBody` with `appSecret`. */
  verifySignature(rawBody: string, signatureHeader: string | undefined, appSecret: string): boolean;
  /** The call events of a webhook body (other events are skipped); throws on a body that is not one. */
  parseWebhook(rawBody: string): CallingEvent[];
  /** Tells the platform the answer early, so media can start before the call is accepted. */
  preAccept(account: CallingAccount, callId: string, sdpAnswer: string): Promise<void>;
  accept(account: CallingAccount, callId: string, sdpAnswer: string): Promise<void>;
  /** Declines a call not yet accepted. */
  reject(account: CallingAccount, callId: string): Promise<void>;
  /** Ends an accepted call. */
  terminate(account: CallingAccount, callId: string): Promise<void>;
}

const FUNCTIONS = [
  "checkNumber",
  "subscribeApp",
  "verifySignature",
  "parseWebhook",
  "preAccept",
  "accept",
  "reject",
  "terminate",
] as const;

/** True when `value` has every function of a CallingAdapter. */
export function isCallingAdapter(value: unknown): value is CallingAdapter {
  if (typeof value !== "object" || value === null) return false;
  return FUNCTIONS.every((name) => typeof Reflect.get(value, name) === "function");
}
