import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client.ts";
import type { CallRecord } from "../../lib/call-runtime.ts";
import { callLogs } from "./schema.ts";
import { recordColumns } from "./service.ts";

/**
 * Call logs found by something other than a tenant: a carrier's status webhook names only its own
 * call id. (A plan's used minutes, which span its owner's workspaces, are billing/counted-calls.ts.)
 */

/** A call by its carrier's id, across workspaces (status webhooks carry no user); ids are unique per carrier. */
export async function findCallByCarrierId(
  db: Executor,
  provider: string,
  providerCallId: string,
): Promise<CallRecord | null> {
  const [row] = await db
    .select(recordColumns)
    .from(callLogs)
    .where(and(eq(callLogs.provider, provider), eq(callLogs.providerCallId, providerCallId)))
    .limit(1);
  return row ?? null;
}
