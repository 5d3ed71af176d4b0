import type { CallAttemptOutcome, CallLog } from "@parley/contract";
import type { AppContext } from "../../context.ts";
import { ServerBusyError } from "../../lib/admission.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { isMinutesRefusal } from "../calls/runtime.ts";
import { sipOutcomeOf } from "../sip/failure-reason.ts";
import { askCarrierForCall } from "../telephony/carrier-lookup.ts";
import { placeOutboundCall } from "../telephony/outbound.ts";
import type { CallSettled, DialPort, DialRequest, DialResult, OrphanedDial } from "./dial-port.ts";

/**
 * What a campaign call carries besides its number. placeOutboundCall reads batchCallId (the call
 * log's batch_call_id); variables and agentId are for the assistant's prompt and the campaign's
 * assistant once the telephony module takes them (see docs/batch-calls.md, "Open ends").
 */
interface CampaignCallOptions {
  batchCallId: string;
  variables: Record<string, string>;
  agentId: string | null;
  squadId: string | null;
}

/** Carrier end reasons (docs/telephony.md) as campaign outcomes; any other end of a call that ran is "answered". */
const UNANSWERED: Record<string, CallAttemptOutcome> = {
  busy: "busy",
  no_answer: "no-answer",
  voicemail: "voicemail",
  failed: "failed",
  canceled: "failed",
  not_joined: "no-answer",
  server_crash: "failed",
  server_shutdown: "failed",
};

export function outcomeOfLog(log: Pick<CallLog, "status" | "end_reason" | "duration_seconds">): CallAttemptOutcome {
  // A SIP trunk's refusal is its status ("SIP 486 Busy Here"), told apart like a carrier's reasons.
  const unanswered = log.end_reason
    ? (UNANSWERED[log.end_reason] ?? sipOutcomeOf(log.end_reason) ?? undefined)
    : undefined;
  // A call that crashed or was shut down after talking for a while was answered all the same.
  if (unanswered && !(log.duration_seconds > 0 && unanswered === "failed")) return unanswered;
  return log.status === "failed" && log.duration_seconds === 0 ? "failed" : "answered";
}

/** Places campaign calls through the telephony module and reads their outcomes from their call logs. */
export function telephonyDialPort(ctx: AppContext): DialPort {
  const { state } = ctx.calls;
  return {
    async dial(request: DialRequest): Promise<DialResult> {
      const options: CampaignCallOptions = {
        batchCallId: request.batchCallId,
        variables: request.variables,
        agentId: request.agentId,
        squadId: request.squadId ?? null,
      };
      try {
        const placed = await placeOutboundCall(ctx, request.tenant, request.fromPhoneNumberId, request.number, options);
        return { kind: "placed", callId: placed.call_id };
      } catch (error) {
        // The workspace is busy, this server is saturated, or the plan's minutes are spoken for: the
        // contact waits and is dialled again later; it has not failed.
        if (
          (error instanceof AppError && error.code === "rate_limited") ||
          error instanceof ServerBusyError ||
          isMinutesRefusal(error)
        )
          return { kind: "busy_workspace", reason: error.message };
        const reason = error instanceof Error ? error.message : String(error);
        return { kind: "failed", reason };
      }
    },

    async settled(tenant: TenantScope, callIds: readonly string[]): Promise<Map<string, CallSettled>> {
      const over = new Map<string, CallSettled>();
      for (const id of callIds) {
        const log = await state.get(tenant, id).catch(() => null);
        // A log deleted by hand while its call ran counts as a failed attempt.
        if (!log) over.set(id, { outcome: "failed", cost: 0 });
        else if (log.status === "completed" || log.status === "failed")
          over.set(id, { outcome: outcomeOfLog(log), cost: log.cost });
      }
      return over;
    },

    async findPlacedCall(tenant: TenantScope, dial: OrphanedDial) {
      const page = await state.list(tenant, {
        batch_call_id: dial.batchCallId,
        search: dial.number,
        date_from: new Date(dial.since.getTime() - 1_000).toISOString(),
        page: 1,
        items_per_page: 10,
      });
      const log = page.data.find((row) => row.to_number === dial.number);
      if (!log) return null;
      if ((await state.find(tenant, log.id))?.providerCallId) return log.id;
      // Logged, but the process died before the carrier's answer to the request came back: only
      // the carrier knows whether the call went out. Where it cannot say, the call counts as
      // placed, since dialling again could ring the contact twice.
      const answer = await askCarrierForCall(ctx, tenant, dial.fromPhoneNumberId, dial.number, dial.since);
      if (answer.kind === "not_placed") return null;
      if (answer.kind === "placed") await state.setCarrier(tenant, log.id, answer);
      return log.id;
    },
  };
}
