import type { MediaStreamProvider } from "@parley/contract";
import type { IncomingCall, TelephonyAccount, TelephonyAdapter, WebhookAnswer, WebhookRequest } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistant } from "../assistants/service.ts";
import type { CallRecord, Room } from "../calls/runtime.ts";
import {
  findInboundNumbers,
  type PhoneNumberRecord,
  requirePhoneNumber,
  webhookUrlsFor,
} from "../phone-numbers/service.ts";
import { accountOf } from "./account.ts";
import { rememberAnswered } from "./answered-calls.ts";
import { findPlacedCall } from "./carrier-call.ts";
import { signStreamGrant } from "./grants.ts";

/** How long an answered call's room waits for its media stream before it gives the slot back. */
export const STREAM_JOIN_TIMEOUT_MS = 30_000;

interface VerifiedNumber {
  record: PhoneNumberRecord;
  account: TelephonyAccount;
}

/** The first candidate whose vendor account signed this webhook; null when none did (403). */
async function verifiedNumber(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  candidates: PhoneNumberRecord[],
  request: WebhookRequest,
): Promise<VerifiedNumber | null> {
  for (const record of candidates) {
    const account = await accountOf(ctx, record);
    if (account && (await adapter.verifyWebhook(account, request))) return { record, account };
  }
  return null;
}

/**
 * Markup that ends the call: the vendor is pointed at a stream with no grant, which Parley refuses,
 * and nothing follows the stream in the markup; the call is also hung up through the REST API so
 * it does not wait on the socket. (The adapter interface has no "reject" markup of its own.)
 */
function refusal(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  account: TelephonyAccount,
  call: IncomingCall,
  reason: string,
): WebhookAnswer {
  ctx.calls.log.info({ provider, reason }, "phone call refused");
  void adapter
    .hangup(account, call.providerCallId)
    .catch((error: unknown) => ctx.calls.log.warn({ provider, err: error }, "could not hang up a refused call"));
  return adapter.answerWithStream(webhookUrlsFor(ctx.config.publicUrl, provider), { refused: reason }, call);
}

async function streamAnswer(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  call: IncomingCall,
  grant: { callId: string; room: string; workspaceId: string; phoneNumberId: string },
): Promise<WebhookAnswer> {
  const token = await signStreamGrant(ctx.calls, grant);
  const parameters = { call_id: grant.callId, room: grant.room, token };
  return adapter.answerWithStream(webhookUrlsFor(ctx.config.publicUrl, provider), parameters, call);
}

/** A caller rang one of the workspace's numbers: a slot, a room and the markup that opens the stream. */
async function answerInbound(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  { record, account }: VerifiedNumber,
  call: IncomingCall,
): Promise<WebhookAnswer> {
  const tenant: TenantScope = { workspaceId: record.workspaceId };
  if (!record.agentId) return refusal(ctx, adapter, provider, account, call, "The number has no inbound assistant.");
  const carrier = { provider, providerCallId: call.providerCallId, phoneNumberId: record.id };
  let room: Room;
  try {
    // The carrier goes into the log as it opens: one write, not two.
    room = await ctx.calls.openCallRoom(tenant, {
      agentId: record.agentId,
      channel: "phone",
      direction: "inbound",
      from: call.from,
      to: record.number,
      carrier,
      joinTimeoutMs: STREAM_JOIN_TIMEOUT_MS,
    });
  } catch (error) {
    // Over the concurrency limit, out of minutes, a provider key missing: the caller is turned away.
    if (error instanceof AppError) return refusal(ctx, adapter, provider, account, call, error.message);
    throw error;
  }
  const logged: CallRecord = {
    id: room.callId,
    workspaceId: record.workspaceId,
    status: "queued",
    agentId: record.agentId,
    direction: "inbound",
    fromNumber: call.from,
    toNumber: record.number,
    ...carrier,
  };
  rememberAnswered({ call: logged, account }, STREAM_JOIN_TIMEOUT_MS);
  return streamAnswer(ctx, adapter, provider, call, {
    callId: room.callId,
    room: room.name,
    workspaceId: record.workspaceId,
    phoneNumberId: record.id,
  });
}

/**
 * A call Parley placed was answered. An answering machine (the vendor's detection) meets the
 * assistant's voicemail rule: "hangup" ends the call here with reason voicemail; "leave_message"
 * streams as usual and the engine waits for the beep.
 */
async function answerOutbound(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  verified: VerifiedNumber,
  call: IncomingCall,
  placed: CallRecord,
  answeredBy: string | undefined,
): Promise<WebhookAnswer> {
  const tenant: TenantScope = { workspaceId: placed.workspaceId };
  if (placed.status !== "queued") {
    return refusal(ctx, adapter, provider, verified.account, call, "The call was answered after it had ended.");
  }
  const assistant = placed.agentId ? await findAssistant(ctx.db, tenant, placed.agentId) : undefined;
  if (
    answeredBy === "machine" &&
    assistant?.voicemail_detection &&
    assistant.voicemail_detection_handler === "hangup"
  ) {
    await ctx.calls.state.closeUnconnected(tenant, placed.id, {
      status: "completed",
      endReason: "voicemail",
      endedAt: ctx.now(),
    });
    freeRoomOf(ctx, placed.id);
    return refusal(ctx, adapter, provider, verified.account, call, "An answering machine picked up.");
  }
  const room = ctx.calls.roomOfCall(placed.id);
  rememberAnswered({ call: placed, account: verified.account }, STREAM_JOIN_TIMEOUT_MS);
  return streamAnswer(ctx, adapter, provider, call, {
    callId: placed.id,
    room: room?.name ?? "",
    workspaceId: placed.workspaceId,
    phoneNumberId: verified.record.id,
  });
}

/** Frees the room of a call that will not run (held by this process, not yet joined). */
export function freeRoomOf(ctx: AppContext, callId: string): void {
  const room = ctx.calls.roomOfCall(callId);
  if (room && !room.call) ctx.calls.rooms.remove(room);
}

/**
 * POST /api/v1/telephony/{provider}/voice: finds the number called (or the call placed), checks the
 * vendor's signature with that number's account, and answers with markup that opens the media
 * stream. Null when no account verifies the signature (403).
 */
export async function answerVoiceWebhook(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  request: WebhookRequest,
): Promise<WebhookAnswer | null> {
  const call = adapter.parseIncomingCall(request);
  if (call.direction === "outbound") {
    const placed = await findPlacedCall(ctx, provider, call);
    if (!placed?.phoneNumberId) return null;
    const tenant = { workspaceId: placed.workspaceId };
    const record = await requirePhoneNumber(ctx.db, tenant, placed.phoneNumberId).catch(() => null);
    const verified = await verifiedNumber(ctx, adapter, record ? [record] : [], request);
    if (!verified) return null;
    const answeredBy = adapter.parseStatus(request)?.answeredBy;
    return answerOutbound(ctx, adapter, provider, verified, call, placed, answeredBy);
  }
  const candidates = await findInboundNumbers(ctx.db, provider, call.to);
  const verified = await verifiedNumber(ctx, adapter, candidates, request);
  if (!verified) return null;
  return answerInbound(ctx, adapter, provider, verified, call);
}
