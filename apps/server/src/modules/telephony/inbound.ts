import type { MediaStreamProvider } from "@parley/contract";
import type { IncomingCall, TelephonyAdapter, WebhookAnswer, WebhookRequest } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { ServerBusyError } from "../../lib/admission.ts";
import { AppError } from "../../lib/app-error.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { isUniqueViolation } from "../../lib/unique-violation.ts";
import { findCallAssistant } from "../assistants/call-assistant.ts";
import type { CallRecord, Room } from "../calls/runtime.ts";
import { findInboundNumbers, requirePhoneNumber } from "../phone-numbers/service.ts";
import { recordCallSquad } from "../squads/call-squads.ts";
import { squadEntry } from "../squads/service.ts";
import { rememberAnswered } from "./answered-calls.ts";
import { findPlacedCall } from "./carrier-call.ts";
import { type VerifiedNumber, verifiedNumber } from "./signed-webhooks.ts";
import { answerRepeated, busyRefusal, refusal, streamAnswer } from "./voice-answers.ts";

/** How long an answered call's room waits for its media stream before it gives the slot back. */
export const STREAM_JOIN_TIMEOUT_MS = 30_000;

/** A caller rang one of the workspace's numbers: a slot, a room and the markup that opens the stream. */
async function answerInbound(
  ctx: AppContext,
  adapter: TelephonyAdapter,
  provider: MediaStreamProvider,
  { record, account }: VerifiedNumber,
  call: IncomingCall,
): Promise<WebhookAnswer> {
  const tenant: TenantScope = { workspaceId: record.workspaceId };
  // A squad answers at its first member (issue 31); a squad deleted since leaves the number unassigned.
  const squad = record.squadId ? await squadEntry(ctx.db, tenant, record.squadId) : undefined;
  const agentId = squad?.member.assistant_id ?? record.agentId;
  if (!agentId) return refusal(ctx, adapter, provider, account, call, "The number has no inbound assistant.");
  const carrier = { provider, providerCallId: call.providerCallId, phoneNumberId: record.id };
  let room: Room;
  try {
    // The carrier goes into the log as it opens: one write, not two.
    room = await ctx.calls.openCallRoom(tenant, {
      agentId,
      channel: "phone",
      direction: "inbound",
      from: call.from,
      to: record.number,
      carrier,
      joinTimeoutMs: STREAM_JOIN_TIMEOUT_MS,
    });
  } catch (error) {
    // This process is saturated: the carrier hears "busy" (and may try another route).
    if (error instanceof ServerBusyError) return busyRefusal(ctx, adapter, provider, account, call, error.message);
    // Over the concurrency limit, out of minutes, a provider key missing: the caller is turned away.
    if (error instanceof AppError) return refusal(ctx, adapter, provider, account, call, error.message);
    throw error;
  }
  // Recorded before the carrier is told where to stream: the call knows its squad when it starts.
  if (squad)
    await recordCallSquad(ctx.db, tenant, { callId: room.callId, squadId: squad.id, member: squad.member.name });
  const logged: CallRecord = {
    id: room.callId,
    workspaceId: record.workspaceId,
    status: "queued",
    agentId,
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
  // Answered already (the vendor retrying, or a replay): the call runs on, not hung up, not opened twice.
  if (placed.status === "in_progress") return answerRepeated(ctx, adapter, provider, verified, call, placed);
  if (placed.status !== "queued") {
    return refusal(ctx, adapter, provider, verified.account, call, "The call was answered after it had ended.");
  }
  const assistant = placed.agentId ? await findCallAssistant(ctx.db, tenant, placed.agentId, placed.id) : undefined;
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

/** A voice webhook for a call already logged under its carrier id: the same call, checked with its number's account. */
async function answerKnown(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  request: WebhookRequest,
  call: IncomingCall,
  known: CallRecord,
): Promise<WebhookAnswer | null> {
  if (!known.phoneNumberId) return null;
  const tenant = { workspaceId: known.workspaceId };
  const record = await requirePhoneNumber(ctx.db, tenant, known.phoneNumberId).catch(() => null);
  const verified = await verifiedNumber(ctx, provider, adapter, record ? [record] : [], request);
  if (!verified) return null;
  if (known.direction === "inbound") return answerRepeated(ctx, adapter, provider, verified, call, known);
  const answeredBy = adapter.parseStatus(request)?.answeredBy;
  return answerOutbound(ctx, adapter, provider, verified, call, known, answeredBy);
}

/**
 * A call the number's vendor rang in for the first time. Two requests for one carrier call at once
 * (a replay racing the vendor, on this process or another) both get here; the call log's unique
 * carrier id lets one open the call, and the other answers as a repeat of it.
 */
async function answerFirstInbound(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  request: WebhookRequest,
  call: IncomingCall,
): Promise<WebhookAnswer | null> {
  const candidates = await findInboundNumbers(ctx.db, provider, call.to);
  const verified = await verifiedNumber(ctx, provider, adapter, candidates, request);
  if (!verified) return null;
  try {
    return await answerInbound(ctx, adapter, provider, verified, call);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const first = await ctx.calls.state.findByCarrierId(provider, call.providerCallId);
    if (!first || first.workspaceId !== verified.record.workspaceId) throw error;
    return answerRepeated(ctx, adapter, provider, verified, call, first);
  }
}

/**
 * POST /api/v1/telephony/{provider}/voice: finds the call by its carrier id (a call Parley placed,
 * or one already answered), else the number called; checks the vendor's signature with that
 * number's account, and answers with markup that opens the media stream. One carrier call id is
 * one call: a repeated webhook never opens a second. Null when no account verifies the signature
 * (403).
 */
export async function answerVoiceWebhook(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  request: WebhookRequest,
): Promise<WebhookAnswer | null> {
  const call = adapter.parseIncomingCall(request);
  if (!call.providerCallId) return null;
  // A placed call may be answered before the request that placed it stored the carrier's id: its
  // lookup waits for it. An inbound call is known only if this webhook came before.
  const known =
    call.direction === "outbound"
      ? await findPlacedCall(ctx, provider, call)
      : await ctx.calls.state.findByCarrierId(provider, call.providerCallId);
  if (known) return answerKnown(ctx, provider, adapter, request, call, known);
  if (call.direction === "outbound") return null;
  return answerFirstInbound(ctx, provider, adapter, request, call);
}
