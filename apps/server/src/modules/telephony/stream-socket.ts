import { randomUUID } from "node:crypto";
import { type MediaStreamProvider, providerDescriptor, routedSocketPath } from "@parley/contract";
import type { StreamCodec, StreamEvent, TelephonyAccount, TelephonyAdapter } from "@parley/engine";
import type { RawData, WebSocket } from "ws";
import type { AppContext } from "../../context.ts";
import type { TenantScope } from "../../lib/tenant-scope.ts";
import { findAssistant } from "../assistants/service.ts";
import type { CallOrigin, CallRecord, Room } from "../calls/runtime.ts";
import { requirePhoneNumber, webhookUrlsFor } from "../phone-numbers/service.ts";
import { accountOf } from "./account.ts";
import { type AnsweredCall, takeAnswered } from "./answered-calls.ts";
import { type BriefingStream, claimBriefingStream } from "./briefing-stream.ts";
import { CallControl, type ControlLinks } from "./call-control.ts";
import { type StreamGrant, signStreamGrant, signTransferGrant, verifyStreamGrant } from "./grants.ts";
import { MediaStreamTransport } from "./media-transport.ts";
import { runningCalls } from "./running-calls.ts";
import { warmTransferDeps } from "./warm-transfer-links.ts";

/** Close code of a stream Parley refuses (the vendor then ends the call: nothing follows the stream in the markup). */
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
async function roomFor(ctx: AppContext, tenant: TenantScope, call: CallRecord): Promise<Room | null> {
  const { db } = ctx;
  const here = ctx.calls.roomOfCall(call.id);
  if (here) return here.workspaceId === tenant.workspaceId && !here.call ? here : null;
  // Held by the webhook's process: take it over, so that process's join timer does not close the log
  // as not_joined under the running call, and the call is listed once.
  const claimed = await ctx.calls.rooms.claim(tenant.workspaceId, { callId: call.id });
  if (claimed) return claimed.call ? null : claimed;
  if (call.status !== "queued" || !call.agentId) return null;
  const assistant = await findAssistant(db, tenant, call.agentId);
  if (!assistant) return null;
  return ctx.calls.rooms.create({
    workspaceId: tenant.workspaceId,
    agentId: call.agentId,
    agentName: assistant.name,
    callId: call.id,
    createdAt: ctx.now(),
    channel: "phone",
  });
}

/** The URLs a call's control needs: transfer markup by URL, and a fresh grant to reopen its stream. */
function controlLinks(ctx: AppContext, provider: MediaStreamProvider, grant: StreamGrant): ControlLinks {
  const urls = webhookUrlsFor(ctx.config.publicUrl, provider);
  return {
    async transferMarkupUrl(request) {
      const base = urls.voiceUrl.replace(/\/voice$/, "/transfer");
      return `${base}?t=${encodeURIComponent(await signTransferGrant(ctx.calls, request))}`;
    },
    async resume() {
      const resume = randomUUID();
      const token = await signStreamGrant(ctx.calls, { ...grant, resume });
      // The stream comes back to this node, which runs the call (its routing key, deploy/).
      const streamUrl = routedSocketPath(urls.streamUrl, ctx.node.routingKey);
      return { urls: { ...urls, streamUrl }, parameters: { call_id: grant.callId, token } };
    },
  };
}

interface StreamStart {
  grant: StreamGrant;
  call: CallRecord;
  account: TelephonyAccount;
  providerCallId: string;
}

/** Checks a start message's grant: the call it names, on this provider, with its number's account. */
async function admit(
  ctx: AppContext,
  provider: MediaStreamProvider,
  event: Extract<StreamEvent, { type: "start" }>,
): Promise<StreamStart | string> {
  const token = event.parameters.token;
  const verified = token ? await verifyStreamGrant(ctx.calls, token) : null;
  if (!verified) return "The stream token is invalid or has expired.";
  const { grant, expiresAt } = verified;
  // One stream per grant: a replayed start message (or token) finds it taken.
  const claim = `stream:${grant.callId}:${grant.resume ?? "first"}`;
  if (!(await ctx.calls.state.claimToken(claim, expiresAt))) {
    return "This stream token has already been used.";
  }
  const { call, account } = (await answeredHere(ctx, grant)) ?? (await readCall(ctx, grant)) ?? {};
  if (!call || call.provider !== provider || !account) return "This call has already ended.";
  return { grant, call, account, providerCallId: event.providerCallId || call.providerCallId || "" };
}

/**
 * The call as the voice webhook on this process answered it, while its room still waits here for
 * the stream (a call closed meanwhile has lost its room, and is read again).
 */
async function answeredHere(ctx: AppContext, grant: StreamGrant): Promise<AnsweredCall | undefined> {
  const answered = takeAnswered(grant.callId);
  const room = ctx.calls.roomOfCall(grant.callId);
  if (!answered || !room || room.call || answered.call.workspaceId !== grant.workspaceId) return undefined;
  return answered.call.phoneNumberId === grant.phoneNumberId ? answered : undefined;
}

/** The call and its number's account, read from the database (a stream landing on another process). */
async function readCall(ctx: AppContext, grant: StreamGrant) {
  const tenant = { workspaceId: grant.workspaceId };
  const call = await ctx.calls.state.find(tenant, grant.callId);
  const record = await requirePhoneNumber(ctx.db, tenant, grant.phoneNumberId).catch(() => null);
  const account = record ? await accountOf(ctx, record) : null;
  return call && account ? { call, account } : null;
}

/**
 * One vendor media stream of GET(ws) /api/v1/telephony/{provider}/stream, from open to close: its
 * start message carries the grant the voice webhook signed; the call then runs in the room the
 * webhook opened, caller audio and keys in, assistant audio out. A grant to resume attaches the
 * socket to the call already running.
 */
export function handleStreamSocket(
  ctx: AppContext,
  provider: MediaStreamProvider,
  adapter: TelephonyAdapter,
  socket: WebSocket,
) {
  const codec: StreamCodec = adapter.createStreamCodec();
  let transport: MediaStreamTransport | null = null;
  let started = false;
  let closed = false;
  /** Set when this socket is a warm transfer's briefing leg: its events go to the transfer. */
  let briefing: BriefingStream | null = null;

  const refuse = (reason: string) => {
    ctx.calls.log.warn({ provider, reason }, "media stream refused");
    socket.close(REFUSED, reason);
  };

  const startCall = async (start: StreamStart) => {
    const { grant, call, account, providerCallId } = start;
    const tenant = { workspaceId: grant.workspaceId };
    const room = await roomFor(ctx, tenant, call);
    if (!room) return refuse("This call has already ended.");
    const from = call.fromNumber ?? "";
    const to = call.toNumber ?? "";
    const ourNumber = call.direction === "inbound" ? to : from;
    const { statusUrl } = webhookUrlsFor(ctx.config.publicUrl, provider);
    const leg = { provider, providerCallId, ourNumber, statusUrl };
    const other = call.direction === "inbound" ? from : to;
    const warm = warmTransferDeps(ctx, { tenant, callId: call.id, agentId: call.agentId, provider, caller: other });
    const callLog = ctx.calls.log.child({ callId: call.id, workspaceId: grant.workspaceId, provider });
    const control = new CallControl(adapter, account, leg, controlLinks(ctx, provider, grant), callLog, warm);
    // The registry forgets the call when it ends (its transport is closed once, by the call).
    const running = new MediaStreamTransport(socket, codec, control, callLog, () => runningCalls.delete(call.id));
    transport = running;
    const caller = {
      identity: `phone-${providerCallId.slice(-16)}`,
      name: other || "Caller",
      kind: "caller" as const,
      joinedAt: ctx.now(),
    };
    const origin: CallOrigin = {
      channel: "phone",
      direction: call.direction,
      from,
      to,
      telephonyPerMinute: carrierPricePerMinute(provider),
    };
    runningCalls.set(call.id, running);
    const live = await ctx.calls.startLiveCall(room, caller, running, origin).catch(() => null);
    if (!live) return;
    running.setLive(live);
    if (closed) running.streamEnded(socket);
  };

  const begin = async (event: Extract<StreamEvent, { type: "start" }>) => {
    const start = await admit(ctx, provider, event);
    if (typeof start === "string") return refuse(start);
    if (!start.grant.resume) return startCall(start);
    const running = runningCalls.get(start.grant.callId);
    if (!running) return refuse("This call has already ended.");
    transport = running;
    running.attach(socket, codec);
  };

  const apply = (event: StreamEvent) => {
    if (briefing) return briefing.onEvent(event);
    const current = transport;
    switch (event.type) {
      case "start":
        if (started) return;
        started = true;
        briefing = claimBriefingStream(socket, codec, event);
        if (briefing) return;
        void begin(event).catch((error: unknown) => {
          ctx.calls.log.error({ provider, err: error }, "media stream failed to start");
          socket.close(1011, "The call could not start.");
        });
        return;
      case "audio":
        current?.pushAudio(socket, event.pcm);
        return;
      case "dtmf":
        current?.pushDtmf(socket, event.digit);
        return;
      case "mark":
        current?.onMark(event.name);
        return;
      case "stop":
        current?.streamEnded(socket);
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
      ctx.calls.log.debug({ provider, err: error }, "undecodable media stream message");
      return;
    }
    for (const event of events) apply(event);
  });
  socket.on("close", () => {
    closed = true;
    briefing?.onEnded();
    transport?.streamEnded(socket);
  });
  socket.on("error", (error) => ctx.calls.log.debug({ provider, err: error }, "media stream socket error"));
}
