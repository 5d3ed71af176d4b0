import { MediaStreamProvider, type OutboundCallResult, PHONE_NUMBER_TEXTS, providerLabel } from "@parley/contract";
import { TelephonyError } from "@parley/engine";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findCallAssistant } from "../assistants/call-assistant.ts";
import { normaliseNumber } from "../phone-numbers/number-format.ts";
import { type PhoneNumberRecord, requirePhoneNumber } from "../phone-numbers/service.ts";
import { placeSipCall } from "../sip/outbound.ts";
import { recordCallSquad } from "../squads/call-squads.ts";
import { squadEntry } from "../squads/service.ts";
import { accountOf, adapterOf } from "./account.ts";
import { callUrlsFor } from "./stream-urls.ts";

/** An extension (2 to 10 digits) or a SIP URI. */
const SIP_DESTINATION = /^([0-9]{2,10}|sips?:[^\s]+)$/;

/** How long a placed call may ring before its room gives its concurrency slot back. */
export const RING_TIMEOUT_MS = 120_000;

export const OUTBOUND_TEXTS = {
  noOutboundAssistant: "This phone number has no outbound assistant. Assign one to the number before placing calls.",
  messagingApp: "WhatsApp numbers cannot place outbound calls",
  noCredentials: (label: string) =>
    `Add your ${label} credentials on the Integrations page before placing calls from this number.`,
  carrierFailed: (detail: string) => `Unable to place the call: ${detail}`,
} as const;

/** The carrier refused or failed to place the call: a 502 with the carrier's reason. */
export class CarrierError extends Error {
  readonly status = 502;
  constructor(message: string) {
    super(message);
    this.name = "CarrierError";
  }
}

/**
 * Places a call from one of the workspace's numbers to `destination` with the number's outbound
 * assistant (POST /make_outbound_call; the campaign dialer reuses it). The call takes a
 * concurrency slot at once and its log reads queued, outbound; the carrier's status callbacks move
 * it on and, once answered, the media stream starts the assistant as on an inbound call. Voicemail
 * detection asks the carrier for answering-machine detection.
 */
export async function placeOutboundCall(
  ctx: AppContext,
  tenant: TenantScope,
  phoneNumberId: string,
  destination: string,
  options: {
    batchCallId?: string | null;
    agentId?: string | null;
    squadId?: string | null;
    variables?: Record<string, string>;
  } = {},
): Promise<OutboundCallResult> {
  const record = await requirePhoneNumber(ctx.db, tenant, phoneNumberId);
  // A campaign's squad starts at its first member (issue 31); a squad deleted since falls back.
  const squad = options.squadId ? await squadEntry(ctx.db, tenant, options.squadId) : undefined;
  // A campaign names its own assistant; a call from the number's page uses the number's outbound one.
  const agentId = squad?.member.assistant_id ?? options.agentId ?? record.outboundAgentId;
  const placed: PlacedBy = {
    batchCallId: options.batchCallId ?? null,
    variables: options.variables ?? {},
    squad: squad ? { id: squad.id, member: squad.member.name } : null,
  };
  const to = normaliseNumber(destination, record.country)?.e164;
  if (record.provider === "sip_trunk" || record.provider === "extension") {
    // A SIP number may also dial another extension or a SIP URI: what is not a phone number goes as typed.
    const sipDestination = to ?? destination.trim();
    if (!to && !SIP_DESTINATION.test(sipDestination))
      throw new AppError("validation", PHONE_NUMBER_TEXTS.invalidNumber);
    if (!agentId) throw new AppError("validation", OUTBOUND_TEXTS.noOutboundAssistant);
    return placeSipCall(ctx, tenant, record, sipDestination, agentId, placed);
  }
  if (!to) throw new AppError("validation", PHONE_NUMBER_TEXTS.invalidNumber);
  // What is left besides the media-stream vendors is a messaging-app number: its calls only come in.
  const media = MediaStreamProvider.safeParse(record.provider);
  if (!media.success) throw new AppError("validation", OUTBOUND_TEXTS.messagingApp);
  const provider = media.data;
  if (!agentId) throw new AppError("validation", OUTBOUND_TEXTS.noOutboundAssistant);
  return placeMediaStreamCall(ctx, tenant, record, provider, agentId, to, placed);
}

/** What a campaign adds to a call it places: its id on the log, the contact's prompt values. */
export interface PlacedBy {
  batchCallId: string | null;
  variables: Record<string, string>;
  /** The squad the call runs, recorded once its room is open (issue 31). */
  squad?: { id: string; member: string } | null;
}

async function placeMediaStreamCall(
  ctx: AppContext,
  tenant: TenantScope,
  record: PhoneNumberRecord,
  provider: MediaStreamProvider,
  agentId: string,
  to: string,
  placed: PlacedBy,
): Promise<OutboundCallResult> {
  const adapter = await adapterOf(provider);
  const account = await accountOf(ctx, record);
  if (!adapter || !account) throw new AppError("validation", OUTBOUND_TEXTS.noCredentials(providerLabel(provider)));
  const room = await ctx.calls.openCallRoom(tenant, {
    agentId,
    channel: "phone",
    direction: "outbound",
    from: record.number,
    to,
    batchCallId: placed.batchCallId,
    variables: placed.variables,
    joinTimeoutMs: RING_TIMEOUT_MS,
  });
  if (placed.squad)
    await recordCallSquad(ctx.db, tenant, {
      callId: room.callId,
      squadId: placed.squad.id,
      member: placed.squad.member,
    });
  // The version the call runs (an experiment may pick one) decides whether the carrier detects machines.
  const assistant = await findCallAssistant(ctx.db, tenant, agentId, room.callId);
  let providerCallId: string;
  try {
    providerCallId = await adapter.placeCall(account, {
      from: record.number,
      to,
      urls: await callUrlsFor(ctx, provider),
      machineDetection: assistant?.voicemail_detection === true && adapter.features.machineDetection,
    });
  } catch (error) {
    await ctx.calls.expireRoom(room, "failed");
    ctx.calls.log.error(
      {
        callId: room.callId,
        workspaceId: tenant.workspaceId,
        phoneNumberId: record.id,
        provider,
        ...failureFields(error),
      },
      "the carrier could not place the call",
    );
    if (error instanceof TelephonyError) {
      const detail = error.kind === "credentials" ? PHONE_NUMBER_TEXTS.badCredentials : error.message;
      throw new CarrierError(OUTBOUND_TEXTS.carrierFailed(detail));
    }
    throw error;
  }
  await ctx.calls.state.setCarrier(tenant, room.callId, { provider, providerCallId, phoneNumberId: record.id });
  return {
    call_id: room.callId,
    status: "queued",
    provider_call_id: providerCallId,
    from_number: record.number,
    to_number: to,
  };
}
