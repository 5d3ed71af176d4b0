import { type OutboundCallResult, PHONE_NUMBER_TEXTS } from "@parley/contract";
import { agreementFrom, createOffer, parseSdp, RtpSession } from "@parley/sip";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import type { PhoneNumberRecord } from "../phone-numbers/service.ts";
import { recordCallSquad } from "../squads/call-squads.ts";
import { isTrunkFault, sipEndReason } from "./failure-reason.ts";
import { routeFor } from "./routing.ts";
import { runAssistantOnLeg } from "./sip-call.ts";
import { sipRuntimeOf } from "./sip-runtime.ts";
import { transferLeg } from "./transfer.ts";
import { syncSipTrunk } from "./trunk-registrations.ts";

/** How long a placed SIP call may ring before it is given up. */
export const SIP_RING_TIMEOUT_MS = 60_000;

export const SIP_OUTBOUND_TEXTS = {
  noRoute: (destination: string) =>
    `There is no SIP route to ${destination}: a trunk number dials any number, an extension only a registered extension.`,
} as const;

/**
 * Places a call from a SIP trunk number (through its carrier, answering a 401/407 with the trunk's
 * credentials) or from an extension (to another registered extension), and runs `agentId` once the
 * far end answers. Resolves as soon as the INVITE is on its way (status "queued", the SIP Call-ID
 * as the carrier id); a final status other than 2xx closes the call log at once with that status
 * as its end reason ("SIP 503 Service Unavailable"; see failure-reason.ts).
 */
export async function placeSipCall(
  ctx: AppContext,
  tenant: TenantScope,
  record: PhoneNumberRecord,
  destination: string,
  agentId: string,
  placed: {
    batchCallId: string | null;
    variables: Record<string, string>;
    /** A campaign's squad (issue 31): the call starts at this member and runs the hand-offs. */
    squad?: { id: string; member: string } | null;
  } = { batchCallId: null, variables: {} },
): Promise<OutboundCallResult> {
  const runtime = sipRuntimeOf(ctx);
  if (!runtime) throw new AppError("unavailable", PHONE_NUMBER_TEXTS.switchUnreachable);
  // A trunk that wants Parley registered is registered before the first call goes out.
  if (record.provider === "sip_trunk") await syncSipTrunk(ctx, record.id, record);
  const route = await routeFor(runtime, record, destination);
  if (!route) throw new AppError("validation", SIP_OUTBOUND_TEXTS.noRoute(destination));
  const room = await ctx.calls.openCallRoom(tenant, {
    agentId,
    channel: "sip",
    direction: "outbound",
    from: record.number,
    to: destination,
    batchCallId: placed.batchCallId,
    variables: placed.variables,
    // Past the INVITE's own last word (ringing, then a CANCEL the far end may ignore for Timer B),
    // so the log closes with the SIP status rather than "not joined".
    joinTimeoutMs: SIP_RING_TIMEOUT_MS + 64 * runtime.ua.stack.t1 + 10_000,
  });
  if (placed.squad)
    await recordCallSquad(ctx.db, tenant, {
      callId: room.callId,
      squadId: placed.squad.id,
      member: placed.squad.member,
    });
  const rtp = await RtpSession.open(runtime.rtp).catch(async (error: unknown) => {
    await ctx.calls.expireRoom(room, "failed");
    throw error;
  });
  let callId = "";
  const dialling = runtime.ua.dial(
    {
      target: route.uri,
      peer: route.peer,
      from: route.from,
      assertedIdentity: route.assertedIdentity,
      credentials: route.credentials,
      sdp: createOffer({ address: runtime.mediaAddress, port: rtp.port }),
      ringTimeoutMs: SIP_RING_TIMEOUT_MS,
    },
    (call) => {
      callId = call.callId;
    },
  );
  await ctx.calls.state.setCarrier(tenant, room.callId, {
    provider: record.provider,
    providerCallId: callId || null,
    phoneNumberId: record.id,
  });
  void dialling.then(
    async (result) => {
      const agreement = result.status < 300 ? agreementFrom(parseSdp(result.call.remoteSdp)) : null;
      if (!agreement) {
        rtp.close();
        if (result.status < 300) await result.call.hangup();
        // An answer whose SDP offers no codec we speak has no SIP status to show: it stays "failed".
        const endReason = result.status < 300 ? "failed" : sipEndReason(result.status, result.reason);
        // Refused credentials fail every call from the trunk until someone fixes them: an error.
        const refusedCredentials = result.status === 401 || result.status === 403 || result.status === 407;
        const level = refusedCredentials
          ? "error"
          : result.status < 300 || isTrunkFault(result.status)
            ? "warn"
            : "info";
        const message =
          result.status < 300
            ? "outbound SIP call answered without usable media"
            : refusedCredentials
              ? "the SIP trunk refused Parley's credentials for an outbound call"
              : "outbound SIP call not answered";
        ctx.calls.log[level](
          {
            callId: room.callId,
            workspaceId: tenant.workspaceId,
            provider: record.provider,
            peer: route.peer,
            target: route.uri,
            status: result.status,
            endReason,
          },
          message,
        );
        await ctx.calls.expireRoom(room, endReason);
        return;
      }
      rtp.configure(agreement);
      await runAssistantOnLeg({
        runtime,
        leg: result.call,
        rtp,
        room,
        origin: { channel: "sip", direction: "outbound", from: record.number, to: destination, telephonyPerMinute: 0 },
        callerName: destination,
        extension: null,
        transfer: async (number) => {
          const next = await routeFor(runtime, record, number);
          if (!next) throw new Error(SIP_OUTBOUND_TEXTS.noRoute(number));
          return transferLeg(runtime, result.call, rtp, next, () => undefined);
        },
      });
    },
    async (error: unknown) => {
      ctx.calls.log.error(
        {
          callId: room.callId,
          workspaceId: tenant.workspaceId,
          provider: record.provider,
          peer: route.peer,
          ...failureFields(error),
        },
        "SIP call could not be placed",
      );
      rtp.close();
      await ctx.calls.expireRoom(room, "failed");
    },
  );
  return {
    call_id: room.callId,
    status: "queued",
    provider_call_id: callId || null,
    from_number: record.number,
    to_number: destination,
  };
}
