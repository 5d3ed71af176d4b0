import { type MediaStreamProvider, providerDescriptor } from "@parley/contract";
import type { StreamEvent, TelephonyAdapter } from "@parley/engine";
import type { RawData, WebSocket } from "ws";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistant } from "../assistants/service.ts";
import { type CallForStream, claimRoomToken, findCallForStream } from "../call-logs/service.ts";
import { type LiveCall, startLiveCall } from "../calls/live-call.ts";
import type { Room } from "../calls/rooms.ts";
import type { CallOrigin, CallsRuntime } from "../calls/runtime.ts";
import { requirePhoneNumber, webhookUrlsFor } from "../phone-numbers/service.ts";
import { accountOf } from "./account.ts";
import { CallControl } from "./call-control.ts";
import { MediaStreamTransport } from "./media-transport.ts";
import { verifyStreamToken } from "./stream-token.ts";

/** Close codes of a stream Parley refuses (the vendor then ends the call: nothing follows the stream in the markup). */
const REFUSED = 1008;

function bytesOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** USD a minute of this vendor's calls costs (its descriptor's telephony price). */
export const carrierPricePerMinute = (provider: string) => providerDescriptor(provider)?.telephony?.pricePerMinute ?? 0;

/**
 * The room of the call. A stream that lands on another process than the voice webhook (several
 * processes behind one load balancer) opens the call's room here, as long as its log is still waiting.
 */
async function roomFor(rt: CallsRuntime, tenant: TenantScope, call: CallForStream): Promise<Room | null> {
  const { rooms, db } = rt.ctx;
  const here = rooms.all().find((room) => room.callId === call.id);
  if (here) return here.workspaceId === tenant.workspaceId && !here.call ? here : null;
  if (call.status !== "queued" || !call.agentId) return null;
  const assistant = await findAssistant(db, tenant, call.agentId);
  if (!assistant) return null;
  return rooms.create({
    workspaceId: tenant.workspaceId,
    agentId: call.agentId,
    agentName: assistant.name,
    callId: call.id,
    createdAt: rt.ctx.now(),
    channel: "phone",
  });
}

/**
 * One vendor media stream of GET(ws) /api/v1/telephony/{provider}/stream, from open to close: its
 * start message carries the grant the voice webhook signed; the call then runs in the room the
 * webhook opened, caller audio and keys in, assistant audio out.
 */
export function handleStreamSocket(
  rt: CallsRuntime,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  socket: WebSocket,
) {
  const codec = adapter.createStreamCodec();
  let live: LiveCall | null = null;
  let transport: MediaStreamTransport | null = null;
  let started = false;
  let closed = false;

  const callerGone = () => {
    transport?.callerGone();
    void live?.hangup("caller_hangup");
  };
  const refuse = (reason: string) => {
    rt.log.warn({ provider, reason }, "media stream refused");
    socket.close(REFUSED, reason);
  };

  const begin = async (event: Extract<StreamEvent, { type: "start" }>) => {
    const token = event.parameters.token;
    const verified = token ? await verifyStreamToken(rt.ctx, token) : null;
    if (!verified) return refuse("The stream token is invalid or has expired.");
    const { grant, expiresAt } = verified;
    // One stream per call: a replayed start message (or token) finds its call taken.
    if (!(await claimRoomToken(rt.ctx.db, `stream:${grant.callId}`, expiresAt, rt.ctx.now()))) {
      return refuse("This stream token has already been used.");
    }
    const tenant = { workspaceId: grant.workspaceId };
    const call = await findCallForStream(rt.ctx.db, tenant, grant.callId);
    const record = await requirePhoneNumber(rt.ctx.db, tenant, grant.phoneNumberId).catch(() => null);
    const account = record ? await accountOf(rt.ctx, record) : null;
    const room = call && call.provider === provider && account ? await roomFor(rt, tenant, call) : null;
    if (!call || !account || !room) return refuse("This call has already ended.");
    const providerCallId = event.providerCallId || call.providerCallId || "";
    const from = call.fromNumber ?? "";
    const to = call.toNumber ?? "";
    const ourNumber = call.direction === "inbound" ? to : from;
    const { statusUrl } = webhookUrlsFor(rt.ctx.config.publicUrl, provider);
    const control = new CallControl(adapter, account, { provider, providerCallId, ourNumber, statusUrl }, rt.log);
    transport = new MediaStreamTransport(socket, codec, control, rt.log);
    const other = call.direction === "inbound" ? from : to;
    const caller = {
      identity: `phone-${providerCallId.slice(-16)}`,
      name: other || "Caller",
      kind: "caller" as const,
      joinedAt: rt.ctx.now(),
    };
    const origin: CallOrigin = {
      channel: "phone",
      direction: call.direction,
      from,
      to,
      telephonyPerMinute: carrierPricePerMinute(provider),
    };
    live = await startLiveCall(rt, room, caller, transport, origin).catch(() => null);
    if (live && closed) callerGone();
  };

  const apply = (event: StreamEvent) => {
    switch (event.type) {
      case "start":
        if (started) return;
        started = true;
        void begin(event).catch((error: unknown) => {
          rt.log.error({ provider, err: error }, "media stream failed to start");
          socket.close(1011, "The call could not start.");
        });
        return;
      case "audio":
        live?.pushAudio(event.pcm);
        return;
      case "dtmf":
        live?.pushDtmf(event.digit);
        return;
      case "mark":
        transport?.onMark(event.name);
        return;
      case "stop":
        callerGone();
        return;
      default:
        return;
    }
  };

  socket.on("message", (data, isBinary) => {
    const bytes = bytesOf(data);
    let events: StreamEvent[];
    try {
      events = codec.decode(isBinary ? bytes : bytes.toString("utf8"), isBinary);
    } catch (error) {
      rt.log.debug({ provider, err: error }, "undecodable media stream message");
      return;
    }
    for (const event of events) apply(event);
  });
  socket.on("close", () => {
    closed = true;
    callerGone();
  });
  socket.on("error", (error) => rt.log.debug({ provider, err: error }, "media stream socket error"));
}
