import { BATCH_CALL_TEXTS } from "@parley/contract";
import { and, count, eq } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { AppError } from "../../lib/app-error.ts";
import { scoped, type TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistant } from "../assistants/service.ts";
import { requirePhoneNumber } from "../phone-numbers/service.ts";
import { squadEntry } from "../squads/service.ts";
import { cancelPending, moveCampaign } from "./claims.ts";
import type { CampaignDialer } from "./dialer.ts";
import { type BatchCallRow, batchCallContacts } from "./schema.ts";
import { requireAllowed, requireBatchCall } from "./service.ts";

const pausedText = "The batch call is paused at its spend cap. Raise the spend cap (or clear it) before resuming.";

async function pendingContacts(db: Database, tenant: TenantScope, id: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(batchCallContacts)
    .where(
      scoped(batchCallContacts, tenant).where(
        and(eq(batchCallContacts.batchCallId, id), eq(batchCallContacts.status, "pending")),
      ),
    );
  return Number(row?.n ?? 0);
}

/** The campaign can place calls: its number exists and it has an assistant (its own or the number's outbound one). */
async function requireDialable(db: Database, tenant: TenantScope, row: BatchCallRow): Promise<void> {
  const number = await requirePhoneNumber(db, tenant, row.fromPhoneNumberId).catch(() => {
    throw new AppError("validation", BATCH_CALL_TEXTS.fromNumberNotFound);
  });
  if (row.squadId && (await squadEntry(db, tenant, row.squadId))) return;
  const agentId = row.agentId ?? number.outboundAgentId;
  if (!agentId) throw new AppError("validation", BATCH_CALL_TEXTS.noAssistant);
  if (!(await findAssistant(db, tenant, agentId))) throw new AppError("validation", BATCH_CALL_TEXTS.agentNotFound);
}

/**
 * POST /initiate_batch_call: from created or scheduled, a future scheduled_time makes it scheduled
 * (dialled at that time), otherwise pending, which the dialer turns to running at once. A campaign
 * paused at its spend cap resumes the same way once its cap allows.
 */
export async function initiateBatchCall(
  db: Database,
  dialer: CampaignDialer,
  tenant: TenantScope,
  id: string,
  now: Date,
): Promise<BatchCallRow> {
  const row = await requireBatchCall(db, tenant, id);
  requireAllowed("initiate", row);
  if (row.status === "pending" && row.pauseReason === null)
    throw new AppError("conflict", BATCH_CALL_TEXTS.notAllowed("initiate", row.status));
  if (row.pauseReason === "spend_cap" && row.spendCap !== null && row.spent >= row.spendCap)
    throw new AppError("conflict", pausedText);
  if ((await pendingContacts(db, tenant, id)) === 0) throw new AppError("validation", BATCH_CALL_TEXTS.noNumbers);
  await requireDialable(db, tenant, row);
  const later = row.scheduledTime !== null && row.scheduledTime.getTime() > now.getTime();
  return db.transaction(async (tx) => {
    const moved = await moveCampaign(tx, tenant, id, [row.status], {
      status: later ? "scheduled" : "pending",
      pauseReason: null,
      finishedAt: null,
    });
    if (!moved) throw new AppError("conflict", BATCH_CALL_TEXTS.notAllowed("initiate", row.status));
    await dialer.schedule(tx, tenant, id, later ? row.scheduledTime : null);
    return moved;
  });
}

/**
 * POST /batch-calls/{id}/stop: cancelled at once, with every contact not yet dialled; calls already
 * placed carry on to their end and are recorded as they finish.
 */
export async function stopBatchCall(db: Database, tenant: TenantScope, id: string, now: Date): Promise<BatchCallRow> {
  const row = await requireBatchCall(db, tenant, id);
  requireAllowed("stop", row);
  return db.transaction(async (tx) => {
    const moved = await moveCampaign(tx, tenant, id, ["scheduled", "pending", "running"], {
      status: "cancelled",
      finishedAt: now,
    });
    if (!moved) throw new AppError("conflict", BATCH_CALL_TEXTS.notAllowed("stop", row.status));
    await cancelPending(tx, tenant, id, now);
    return moved;
  });
}
