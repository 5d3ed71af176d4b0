import type { Executor } from "../../db/client.ts";
import type { CallRequest } from "../../lib/call-runtime.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";

/**
 * Calls whose assistant version is fixed by whoever placed them, ahead of any experiment: a test
 * run's calls run the version the run was started for (issue 30). The modules that place such calls
 * import this one (a cycle the other way), so each registers a pin from its route plugin, as
 * save-checks.ts's checks are; a pin answers null for calls that are not its own.
 */
export type CallVersionPin = (db: Executor, tenant: TenantScope, request: CallRequest) => Promise<number | null>;

const pins = new Set<CallVersionPin>();

/** Adds a pin (once, however many apps a process builds). */
export function addCallVersionPin(pin: CallVersionPin): void {
  pins.add(pin);
}

/** The version a registered pin fixes for this call; null when none does. */
export async function pinnedVersionOf(db: Executor, tenant: TenantScope, request: CallRequest): Promise<number | null> {
  for (const pin of pins) {
    const version = await pin(db, tenant, request);
    if (version !== null) return version;
  }
  return null;
}
