import { REALTIME_CLOSE_CODES, RealtimeClientMessage } from "@parley/contract";
import type { FastifyRequest } from "fastify";
import type { RawData, WebSocket } from "ws";
import type { AppContext } from "../../context.ts";
import { RateBudget } from "./rate-budget.ts";
import { bytesFromPcm, lateFrameWatch, pcmFromBytes, silenceFilter } from "./realtime-messages.ts";
import { RoomGrantClaims } from "./room-grant.ts";
import { type CallTransport, type LiveCall, originAllowed, WEB_ORIGIN } from "./runtime.ts";

const OPEN = 1;
/** Caller audio is 16 kHz 16-bit mono: bytes per second of real time. */
const AUDIO_BYTES_PER_SECOND = 32_000;
/** A second of audio may arrive early (a network stall catching up); more than that is dropped. */
const AUDIO_BURST_BYTES = AUDIO_BYTES_PER_SECOND;
/** Typed messages: five at once, then one a second. */
const TEXT_PER_SECOND = 1;
const TEXT_BURST = 5;
/** Messages kept while the call starts; a client that sends more is not a person typing. */
const MAX_PENDING = 20;
export const TEXT_RATE_MESSAGE = "You are sending messages too quickly. Please wait a moment before sending another.";

function bytesOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

function transportOf(socket: WebSocket): CallTransport {
  const paced = lateFrameWatch();
  const worthWriting = silenceFilter({ firstAfterSound: false });
  return {
    send(message) {
      if (socket.readyState === OPEN) socket.send(JSON.stringify(message));
    },
    sendAudio(pcm) {
      paced();
      // A socket write per 20 ms frame is the largest cost of a call: the assistant's silence
      // (exact zeros) is sent only as a keepalive, the caller's player is quiet between frames anyway.
      if (worthWriting(pcm) && socket.readyState === OPEN) socket.send(bytesFromPcm(pcm), { binary: true });
    },
    close(code, reason) {
      if (socket.readyState === OPEN) socket.close(code, reason.slice(0, 120));
    },
  };
}

/** Checks origin, token and room; the room to join, or null after closing the socket with the reason. */
async function admit(ctx: AppContext, socket: WebSocket, request: FastifyRequest, token: string | undefined) {
  const refuse = (code: number, reason: string) => {
    socket.close(code, reason);
    return null;
  };
  const { calls } = ctx;
  const grant = token ? await calls.verifyGrant("room", RoomGrantClaims, token) : null;
  // A call widget's token names the one site it was issued to; other tokens open from Parley's pages only.
  const origin = request.headers.origin;
  const allowed = grant?.origin ? origin === grant.origin : originAllowed(origin, ctx.config.publicUrl, request.host);
  if (!allowed) return refuse(REALTIME_CLOSE_CODES.forbiddenOrigin, "This origin may not open calls.");
  if (!grant) return refuse(REALTIME_CLOSE_CODES.unauthorized, "The room token is invalid or has expired.");
  // Any attempt that gets this far uses the token up, whatever happens next.
  if (!(await calls.state.claimToken(grant.jti, new Date(grant.exp * 1000)))) {
    return refuse(REALTIME_CLOSE_CODES.unauthorized, "This room token has already been used.");
  }
  // A load balancer may send the socket to another process than the one holding the room: take it over.
  const room = calls.rooms.get(grant.room) ?? (await calls.rooms.claim(grant.workspace_id, { room: grant.room }));
  if (!room || room.workspaceId !== grant.workspace_id) {
    return refuse(REALTIME_CLOSE_CODES.roomGone, "This call has already ended.");
  }
  if ([...room.participants.values()].some((p) => p.kind === "caller")) {
    return refuse(REALTIME_CLOSE_CODES.roomBusy, "Someone is already on this call.");
  }
  return { room, grant };
}

/** Handles one caller socket of GET /api/v1/realtime?token=… from upgrade to close. */
export function handleRealtimeSocket(ctx: AppContext, socket: WebSocket, request: FastifyRequest, token?: string) {
  let call: LiveCall | null = null;
  let closed = false;
  let muted = false;
  // Typed messages that arrive while the call is starting are kept and replayed; audio is live-only.
  const pending: RealtimeClientMessage[] = [];
  const transport = transportOf(socket);
  // Audio faster than real time (a flood, a replayed file) is dropped: it would record minutes in
  // seconds and grow memory without bound. Typed messages are limited like a person's typing.
  const audioBudget = new RateBudget(AUDIO_BYTES_PER_SECOND, AUDIO_BURST_BYTES);
  const textBudget = new RateBudget(TEXT_PER_SECOND, TEXT_BURST);

  const apply = (live: LiveCall, message: RealtimeClientMessage) => {
    if (message.type === "text") live.pushText(message.text);
    else if (message.type === "dtmf") live.pushDtmf(message.digit);
    else if (message.type === "mute") muted = message.muted;
    else void live.hangup("caller_hangup");
  };

  socket.on("message", (data, isBinary) => {
    if (isBinary) {
      const bytes = bytesOf(data);
      if (call && !muted && audioBudget.trySpend(bytes.byteLength)) call.pushAudio(pcmFromBytes(bytes));
      return;
    }
    let parsed: ReturnType<typeof RealtimeClientMessage.safeParse>;
    try {
      parsed = RealtimeClientMessage.safeParse(JSON.parse(bytesOf(data).toString("utf8")));
    } catch {
      parsed = RealtimeClientMessage.safeParse(null);
    }
    if (!parsed.success) return transport.send({ type: "error", message: "Unrecognised message." });
    if (parsed.data.type === "text" && !textBudget.trySpend(1)) {
      return transport.send({ type: "error", message: TEXT_RATE_MESSAGE });
    }
    if (call) apply(call, parsed.data);
    else if (pending.length < MAX_PENDING) pending.push(parsed.data);
  });
  socket.on("close", () => {
    closed = true;
    void call?.hangup("caller_hangup");
  });
  const { calls } = ctx;
  socket.on("error", (error) => calls.log.debug({ err: error }, "realtime socket error"));

  void (async () => {
    const admitted = await admit(ctx, socket, request, token);
    if (!admitted || closed) return;
    const { room, grant } = admitted;
    const caller = { identity: grant.sub, name: grant.name, kind: "caller" as const, joinedAt: ctx.now() };
    // A widget call is a browser call too; only its channel differs (metrics, server events).
    const origin = room.channel === "widget" ? { ...WEB_ORIGIN, channel: "widget" as const } : WEB_ORIGIN;
    call = await calls.startLiveCall(room, caller, transport, origin).catch(() => null);
    if (!call) return;
    if (closed) return void call.hangup("caller_hangup");
    for (const message of pending.splice(0)) apply(call, message);
  })().catch((error: unknown) => {
    calls.log.error({ err: error }, "realtime socket failed");
    transport.close(REALTIME_CLOSE_CODES.startFailed, "The call could not start.");
  });
}
