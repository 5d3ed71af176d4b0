import type { CallingAdapter, CallingEvent } from "@parley/engine/webrtc";
import { WebrtcAudioLeg } from "@parley/engine/webrtc";
import type { AppContext } from "../../context.ts";
import type { CallOrigin, LiveCall, Participant, Room } from "../calls/runtime.ts";
import { accountOf, CHANNEL, PROVIDER } from "./vendor.ts";
import type { SignedNumber } from "./webhook-signature.ts";
import { WebrtcTransport } from "./webrtc-transport.ts";

type ConnectEvent = Extract<CallingEvent, { type: "connect" }>;

/** How long an accepted call may take to get its media flowing before it is given up. */
const CONNECT_TIMEOUT_MS = 30_000;

interface Answered {
  leg: WebrtcAudioLeg;
  call: LiveCall | null;
  /** The platform ended the call (terminate webhook): nothing to terminate on our side. */
  endedByPlatform: boolean;
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref()),
  ]);

/**
 * The platform's calls this process answers, by the platform's call id. A connect event becomes a
 * room (the workspace's concurrency slot and call log), a WebRTC answer posted as pre_accept then
 * accept, and a live call with the number's assistant once media flows; terminate hangs it up.
 */
export class InboundCalls {
  private readonly calls = new Map<string, Answered>();

  constructor(private readonly ctx: AppContext) {}

  answer(adapter: CallingAdapter, number: SignedNumber, event: ConnectEvent): void {
    if (this.calls.has(event.callId)) return; // a redelivered webhook
    void this.run(adapter, number, event).catch((error: unknown) => {
      this.ctx.calls.log.warn({ err: error, platformCallId: event.callId }, "could not answer the call");
    });
  }

  /** The platform says the call ended (the caller hung up). */
  ended(callId: string): void {
    const answered = this.calls.get(callId);
    if (!answered) return;
    this.calls.delete(callId);
    answered.endedByPlatform = true;
    if (answered.call) void answered.call.hangup("caller_hangup");
    else answered.leg.close();
  }

  async endAll(): Promise<void> {
    await Promise.all([...this.calls.keys()].map(async (id) => this.ended(id)));
  }

  private async run(adapter: CallingAdapter, number: SignedNumber, event: ConnectEvent): Promise<void> {
    const { record } = number;
    const account = accountOf(this.ctx, record, number.accessToken);
    const hangUp = () =>
      adapter.terminate(account, event.callId).catch((error: unknown) => {
        this.ctx.calls.log.warn({ err: error, platformCallId: event.callId }, "could not terminate the call");
      });
    const decline = () =>
      adapter.reject(account, event.callId).catch((error: unknown) => {
        this.ctx.calls.log.warn({ err: error, platformCallId: event.callId }, "could not reject the call");
      });
    if (!record.agentId) {
      await decline();
      return;
    }
    const tenant = { workspaceId: record.workspaceId };
    const origin: CallOrigin = {
      channel: CHANNEL,
      direction: "inbound",
      from: event.from,
      to: record.number,
      telephonyPerMinute: 0,
    };
    let room: Room;
    try {
      room = await this.ctx.calls.openCallRoom(tenant, { agentId: record.agentId, ...origin });
    } catch (error) {
      await decline(); // over the concurrency limit, out of minutes, or missing keys
      throw error;
    }
    try {
      await this.ctx.calls.state.setCarrier(room, room.callId, {
        provider: PROVIDER,
        providerCallId: event.callId,
        phoneNumberId: record.id,
      });
    } catch (error) {
      await this.ctx.calls.expireRoom(room, "error");
      await decline();
      throw error;
    }
    const answered = await this.connect(adapter, account, event, room);
    if (!answered) {
      await hangUp();
      return;
    }
    const { leg } = answered;
    const transport = new WebrtcTransport(leg, async () => {
      this.calls.delete(event.callId);
      if (!answered.endedByPlatform) await hangUp();
    });
    const caller: Participant = {
      identity: `caller-${event.from.replace(/\D/g, "")}`,
      name: event.callerName ?? event.from,
      kind: "caller",
      joinedAt: this.ctx.now(),
    };
    const call = await this.ctx.calls.startLiveCall(room, caller, transport, origin);
    answered.call = call;
    leg.onAudio((pcm) => call.pushAudio(pcm));
    leg.onClose(() => void call.hangup("caller_hangup"));
  }

  /** Answers the offer, pre-accepts and accepts, and waits for media; null (room freed) when it fails. */
  private async connect(
    adapter: CallingAdapter,
    account: ReturnType<typeof accountOf>,
    event: ConnectEvent,
    room: Room,
  ): Promise<Answered | null> {
    let leg: WebrtcAudioLeg | null = null;
    try {
      const answer = await WebrtcAudioLeg.answer(event.sdp, { iceServers: this.ctx.config.whatsapp.iceServers });
      leg = answer.leg;
      const answered: Answered = { leg, call: null, endedByPlatform: false };
      this.calls.set(event.callId, answered);
      await adapter.preAccept(account, event.callId, answer.sdp);
      await adapter.accept(account, event.callId, answer.sdp);
      await within(leg.connected, CONNECT_TIMEOUT_MS, "connecting the call's media");
      return answered;
    } catch (error) {
      this.ctx.calls.log.warn({ err: error, platformCallId: event.callId }, "the call's media did not connect");
      this.calls.delete(event.callId);
      leg?.close();
      await this.ctx.calls.expireRoom(room, "error");
      return null;
    }
  }
}
