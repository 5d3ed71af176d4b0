import type { MediaStreamProvider } from "@parley/contract";
import type { StatusUpdate, TelephonyAdapter, TelephonyCallStatus, WebhookRequest } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { failureFields } from "../../lib/log-options.ts";
import { findAssistant } from "../assistants/service.ts";
import { requirePhoneNumber } from "../phone-numbers/service.ts";
import { accountOf } from "./account.ts";
import { findPlacedCall } from "./carrier-call.ts";
import { freeRoomOf } from "./inbound.ts";
import { carrierEnded } from "./running-calls.ts";
import { acceptSignedWebhook } from "./signed-webhooks.ts";

/**
 * The end reason a call log gets when the carrier reports the call over before its assistant ran
 * (documented in docs/telephony.md): busy, no_answer, failed, canceled; a call answered and hung up
 * before its stream started is caller_hangup.
 */
const UNCONNECTED_REASONS: Partial<Record<TelephonyCallStatus, string>> = {
  busy: "busy",
  "no-answer": "no_answer",
  failed: "failed",
  canceled: "canceled",
  completed: "caller_hangup",
};

export type StatusOutcome = "applied" | "ignored" | "forbidden";

/**
 * POST /api/v1/telephony/{provider}/status: the vendor's word on a call (ringing, in-progress,
 * busy, no-answer, failed, completed; an answering machine). Signature checked with the account of
 * the number the call used. A call that never reached its assistant is closed with the carrier's
 * reason; a call that is live ends when the carrier says it is over, or when an answering machine
 * picked up and the assistant hangs up on machines.
 */
export async function applyStatusWebhook(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  request: WebhookRequest,
): Promise<StatusOutcome> {
  const update = adapter.parseStatus(request);
  if (!update) return "ignored";
  const call = await findPlacedCall(ctx, provider, update);
  if (!call?.phoneNumberId) return "ignored";
  const tenant = { workspaceId: call.workspaceId };
  const record = await requirePhoneNumber(ctx.db, tenant, call.phoneNumberId).catch(() => null);
  const account = record ? await accountOf(ctx, record) : null;
  if (!account || !(await acceptSignedWebhook(ctx, provider, adapter, account, request))) return "forbidden";
  ctx.calls.log.info({ provider, callId: call.id, status: update.status }, "phone call status");
  const hangup = () =>
    adapter
      .hangup(account, update.providerCallId)
      .catch((error: unknown) =>
        ctx.calls.log.warn(
          { callId: call.id, workspaceId: call.workspaceId, provider, ...failureFields(error) },
          "could not hang up on an answering machine",
        ),
      );
  await apply(ctx, { ...call, tenant }, update, hangup);
  return "applied";
}

async function apply(
  ctx: AppContext,
  call: { id: string; agentId: string | null; tenant: { workspaceId: string } },
  update: StatusUpdate,
  hangup: () => Promise<void>,
): Promise<void> {
  const room = ctx.calls.roomOfCall(call.id);
  const live = room?.call ?? null;
  if (update.answeredBy === "machine" && (await hangsUpOnMachines(ctx, call))) {
    if (live) return live.end("voicemail");
    // Detected before the stream started: the call ends here, and the stream (if it still comes) is refused.
    const closed = await ctx.calls.state.closeUnconnected(call.tenant, call.id, {
      status: "completed",
      endReason: "voicemail",
      endedAt: ctx.now(),
    });
    if (closed) {
      freeRoomOf(ctx, call.id);
      await hangup();
    }
    return;
  }
  const reason = UNCONNECTED_REASONS[update.status];
  if (!reason) return;
  if (live) {
    // The carrier says the call is over (the caller hung up, the line dropped) while it still runs
    // here: it ends without asking the carrier to hang up a call it no longer has.
    if (update.status === "completed" || update.status === "failed") {
      carrierEnded(call.id);
      await live.end("caller_hangup");
    }
    return;
  }
  const closed = await ctx.calls.state.closeUnconnected(call.tenant, call.id, {
    status: update.status === "completed" ? "completed" : "failed",
    endReason: reason,
    endedAt: ctx.now(),
  });
  if (closed) freeRoomOf(ctx, call.id);
}

async function hangsUpOnMachines(
  ctx: AppContext,
  call: { agentId: string | null; tenant: { workspaceId: string } },
): Promise<boolean> {
  const assistant = call.agentId ? await findAssistant(ctx.db, call.tenant, call.agentId) : undefined;
  return assistant?.voicemail_detection === true && assistant.voicemail_detection_handler === "hangup";
}
