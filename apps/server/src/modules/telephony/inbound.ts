import type { MediaStreamProvider } from "@parley/contract";
import type { IncomingCall, TelephonyAccount, TelephonyAdapter, WebhookAnswer, WebhookRequest } from "@parley/engine";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistant } from "../assistants/service.ts";
import { closeUnconnectedCall, setCallCarrier } from "../call-logs/service.ts";
import type { CallsRuntime } from "../calls/runtime.ts";
import { openCallRoom } from "../calls/start-call.ts";
import {
  findInboundNumbers,
  type PhoneNumberRecord,
  requirePhoneNumber,
  webhookUrlsFor,
} from "../phone-numbers/service.ts";
import { accountOf } from "./account.ts";
import { findPlacedCall } from "./carrier-call.ts";
import { signStreamToken } from "./stream-token.ts";

/** How long an answered call's room waits for its media stream before it gives the slot back. */
export const STREAM_JOIN_TIMEOUT_MS = 30_000;

interface VerifiedNumber {
  record: PhoneNumberRecord;
  account: TelephonyAccount;
}

/** The first candidate whose vendor account signed this webhook; null when none did (403). */
async function verifiedNumber(
  rt: CallsRuntime,
  adapter: TelephonyAdapter,
  candidates: PhoneNumberRecord[],
  request: WebhookRequest,
): Promise<VerifiedNumber | null> {
  for (const record of candidates) {
    const account = await accountOf(rt.ctx, record);
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
  rt: CallsRuntime,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  account: TelephonyAccount,
  call: IncomingCall,
  reason: string,
): WebhookAnswer {
  rt.log.info({ provider, reason }, "phone call refused");
  void adapter
    .hangup(account, call.providerCallId)
    .catch((error: unknown) => rt.log.warn({ provider, err: error }, "could not hang up a refused call"));
  return adapter.answerWithStream(webhookUrlsFor(rt.ctx.config.publicUrl, provider), { refused: reason }, call);
}

async function streamAnswer(
  rt: CallsRuntime,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  call: IncomingCall,
  grant: { callId: string; room: string; workspaceId: string; phoneNumberId: string },
): Promise<WebhookAnswer> {
  const token = await signStreamToken(rt.ctx, grant);
  const parameters = { call_id: grant.callId, room: grant.room, token };
  return adapter.answerWithStream(webhookUrlsFor(rt.ctx.config.publicUrl, provider), parameters, call);
}

/** A caller rang one of the workspace's numbers: a slot, a room and the markup that opens the stream. */
async function answerInbound(
  rt: CallsRuntime,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  { record, account }: VerifiedNumber,
  call: IncomingCall,
): Promise<WebhookAnswer> {
  const tenant: TenantScope = { workspaceId: record.workspaceId };
  if (!record.agentId) return refusal(rt, adapter, provider, account, call, "The number has no inbound assistant.");
  let room: Awaited<ReturnType<typeof openCallRoom>>;
  try {
    room = await openCallRoom(rt, tenant, {
      agentId: record.agentId,
      channel: "phone",
      direction: "inbound",
      from: call.from,
      to: record.number,
      joinTimeoutMs: STREAM_JOIN_TIMEOUT_MS,
    });
  } catch (error) {
    // Over the concurrency limit, out of minutes, a provider key missing: the caller is turned away.
    if (error instanceof AppError) return refusal(rt, adapter, provider, account, call, error.message);
    throw error;
  }
  await setCallCarrier(rt.ctx.db, tenant, room.callId, {
    provider,
    providerCallId: call.providerCallId,
    phoneNumberId: record.id,
  });
  return streamAnswer(rt, adapter, provider, call, {
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
  rt: CallsRuntime,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  verified: VerifiedNumber,
  call: IncomingCall,
  placed: { id: string; workspaceId: string; agentId: string | null; status: string },
  answeredBy: string | undefined,
): Promise<WebhookAnswer> {
  const tenant: TenantScope = { workspaceId: placed.workspaceId };
  if (placed.status !== "queued") {
    return refusal(rt, adapter, provider, verified.account, call, "The call was answered after it had ended.");
  }
  const assistant = placed.agentId ? await findAssistant(rt.ctx.db, tenant, placed.agentId) : undefined;
  if (
    answeredBy === "machine" &&
    assistant?.voicemail_detection &&
    assistant.voicemail_detection_handler === "hangup"
  ) {
    await closeUnconnectedCall(rt.ctx.db, tenant, placed.id, {
      status: "completed",
      endReason: "voicemail",
      endedAt: rt.ctx.now(),
    });
    freeRoomOf(rt, placed.id);
    return refusal(rt, adapter, provider, verified.account, call, "An answering machine picked up.");
  }
  const room = rt.ctx.rooms.all().find((r) => r.callId === placed.id);
  return streamAnswer(rt, adapter, provider, call, {
    callId: placed.id,
    room: room?.name ?? "",
    workspaceId: placed.workspaceId,
    phoneNumberId: verified.record.id,
  });
}

/** Frees the room of a call that will not run (held by this process, not yet joined). */
export function freeRoomOf(rt: CallsRuntime, callId: string): void {
  const room = rt.ctx.rooms.all().find((r) => r.callId === callId);
  if (room && !room.call) rt.ctx.rooms.remove(room);
}

/**
 * POST /api/v1/telephony/{provider}/voice: finds the number called (or the call placed), checks the
 * vendor's signature with that number's account, and answers with markup that opens the media
 * stream. Null when no account verifies the signature (403).
 */
export async function answerVoiceWebhook(
  rt: CallsRuntime,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  request: WebhookRequest,
): Promise<WebhookAnswer | null> {
  const call = adapter.parseIncomingCall(request);
  if (call.direction === "outbound") {
    const placed = await findPlacedCall(rt, provider, call);
    if (!placed?.phoneNumberId) return null;
    const tenant = { workspaceId: placed.workspaceId };
    const record = await requirePhoneNumber(rt.ctx.db, tenant, placed.phoneNumberId).catch(() => null);
    const verified = await verifiedNumber(rt, adapter, record ? [record] : [], request);
    if (!verified) return null;
    const answeredBy = adapter.parseStatus(request)?.answeredBy;
    return answerOutbound(rt, adapter, provider, verified, call, placed, answeredBy);
  }
  const candidates = await findInboundNumbers(rt.ctx.db, provider, call.to);
  const verified = await verifiedNumber(rt, adapter, candidates, request);
  if (!verified) return null;
  return answerInbound(rt, adapter, provider, verified, call);
}
