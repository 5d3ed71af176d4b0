import type { Executor } from "../../db/client.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";

/** What experiment results need of one ended call, read from its log. */
export interface CallFigures {
  callId: string;
  /** The post-call analysis's success verdict; null when the call was not judged. */
  passed: boolean | null;
  durationSeconds: number;
  transferred: boolean;
  /** USD. */
  cost: number;
  /** The caller's wait per turn (voice-to-voice), where measured. */
  latenciesMs: number[];
}

/**
 * Reads the figures of the given calls (those of the tenant's workspace that have ended). Call logs
 * are the call-logs module's, which imports this one: it registers the reader from its route
 * plugin (as save-checks.ts does), so this module does not import it back (a cycle).
 */
export type CallFiguresReader = (db: Executor, tenant: TenantScope, callIds: string[]) => Promise<CallFigures[]>;

let reader: CallFiguresReader | undefined;

export function setCallFiguresReader(read: CallFiguresReader): void {
  reader = read;
}

/** The calls' figures, or none while no reader is registered (results then count calls only). */
export async function readCallFigures(db: Executor, tenant: TenantScope, callIds: string[]): Promise<CallFigures[]> {
  if (!reader || callIds.length === 0) return [];
  return reader(db, tenant, callIds);
}
