import type { PrivacySettings } from "@parley/contract";
import type { FastifyBaseLogger } from "fastify";
import type { AppContext } from "../../context.ts";
import type { CallMetrics, CallState } from "../../lib/call-runtime.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import type { CallTraces } from "./call-traces.ts";
import type { GrantSigner } from "./grants.ts";
import type { RoomRegistry } from "./rooms.ts";

/** What the call runtime's own parts (room opening, the live call, upkeep) share; built once by createCallRuntime. */
export interface CallDeps {
  ctx: AppContext;
  rooms: RoomRegistry;
  metrics: CallMetrics;
  state: CallState;
  grants: GrantSigner;
  log: FastifyBaseLogger;
  /** One trace per live call when traces are exported (call-traces.ts). */
  traces: CallTraces;
  /**
   * Ended calls whose log is still being written: their room is already gone (the slot is free at
   * once), so a stopping process waits on these before it closes its database.
   */
  persisting: Set<Promise<void>>;
  /** The workspace's privacy settings (the privacy module's, handed in): PII redaction and zero-retention. */
  privacySettings(tenant: TenantScope): Promise<PrivacySettings>;
}
