import type { CallAttemptOutcome } from "@parley/contract";
import type { TenantScope } from "../../lib/tenant-scope.ts";

/** One call the dialer asks for: a campaign's contact, from the campaign's number with its assistant. */
export interface DialRequest {
  tenant: TenantScope;
  batchCallId: string;
  fromPhoneNumberId: string;
  /** The campaign's assistant; null: the number's outbound assistant. */
  agentId: string | null;
  /** The campaign's squad (issue 31): the call starts at its first member. */
  squadId?: string | null;
  number: string;
  /** For the assistant's prompt ({{first_name}}). */
  variables: Record<string, string>;
}

/**
 * What came of asking for a call: placed (its call log id), refused for now (the workspace is at its
 * concurrency limit: the contact waits, the attempt is not spent), or failed (the attempt is spent).
 */
export type DialResult =
  | { kind: "placed"; callId: string }
  | { kind: "busy_workspace"; reason: string }
  | { kind: "failed"; reason: string };

/** A placed call, once over: what it came to and what it cost (USD). */
export interface CallSettled {
  outcome: CallAttemptOutcome;
  cost: number;
}

/** A contact's dial that a process died in the middle of. */
export interface OrphanedDial {
  batchCallId: string;
  /** The campaign's number the call was placed from. */
  fromPhoneNumberId: string;
  number: string;
  /** When the dial was claimed: a call logged or created before it is an earlier attempt's. */
  since: Date;
}

/**
 * The dialer's one way to the phone network and to the calls it placed, so the dialer can be driven
 * against a fake in tests and benchmarks. The telephony implementation is telephony-dial-port.ts.
 */
export interface DialPort {
  dial(request: DialRequest): Promise<DialResult>;
  /** The calls among `callIds` that are over (a call still ringing or talking is left out). */
  settled(tenant: TenantScope, callIds: readonly string[]): Promise<Map<string, CallSettled>>;
  /**
   * The call a dial that a dead process was placing left behind: the campaign's call to `number`
   * logged since `since`, or null when the dial never reached the carrier (nothing was logged, or
   * the carrier says it has no such call).
   */
  findPlacedCall(tenant: TenantScope, dial: OrphanedDial): Promise<string | null>;
  /** Calls `listener` when a call may have ended, so the dialer looks at once rather than at its next poll. */
  onSettle?(listener: () => void): void;
}
