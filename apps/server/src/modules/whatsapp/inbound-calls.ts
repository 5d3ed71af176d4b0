import type { CallEndReason } from "@parley/contract";
import type { CallingAdapter, CallingEvent } from "@parley/engine/webrtc";
import { WebrtcAudioLeg } from "@parley/engine/webrtc";
import type { AppContext } from "../../context.ts";
import { failureFields } from "../../lib/log-options.ts";
import type { CallOrigin, LiveCall, Participant, Room } from "../calls/runtime.ts";
import { recordCallSquad } from "../squads/call-squads.ts";
import { squadEntry } from "../squads/service.ts";
import { accountOf, CHANNEL, PROVIDER } from "./vendor.ts";
import type { SignedNumber } from "./webhook-signature.ts";
import { WebrtcTransport } from "./webrtc-transport.ts";

type ConnectEvent = Extract<CallingEvent, { type: "connect" }>;

/** How long an accepted call may take to get its media flowing before it is given up. */
const CONNECT_TIMEOUT_MS = 30_000;

/** One platform call this process holds, from its connect webhook until it ends. */
interface Answered {
  /** Its room once opened: the concurrency slot and call log a hang-up while connecting must free. */
  room: Room | null;
  leg: WebrtcAudioLeg | null;
  call: LiveCall | null;
  /** The platform ended the call (terminate webhook): nothing to terminate on our side. */
  endedByPlatform: boolean;
  /** Aborted by the terminate webhook (or shutdown), so a call still connecting stops at its next step. */
  hungUp: AbortController;
  /** Why it was aborted: the end reason its call log closes with. */
  endReason: CallEndReason;
}

/** The call ended (the caller hung up, or the server is stopping) while it was still being connected. */
class HungUpWhileConnecting extends Error {
  constructor() {
    super("the call ended while it was connecting");
  }
}

const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref()),
  ]);

/** Rejects with HungUpWhileConnecting as soon as `signal` aborts (and at once when it already has). */
const untilHungUp = (signal: AbortSignal): Promise<never> =>
  new Promise((_, reject) => {
    if (signal.aborted) reject(new HungUpWhileConnecting());
    else signal.addEventListener("abort", () => reject(new HungUpWhileConnecting()), { once: true });
  });

/**
 * The platform's calls this process answers, by the platform's call id. A connect event becomes a
 * room (the workspace's concurrency slot and call log), a WebRTC answer posted as pre_accept then
 * accept, and a live call with the number's assistant once media flows; terminate hangs it up —
 * also while it is still connecting, which frees the room at once and closes its log as the
 * caller's hang-up (no pre_accept/accept is posted after it).
 */
export class InboundCalls {
  private readonly calls = new Map<string, Answered>();

  constructor(private readonly ctx: AppContext) {}

  answer(adapter: CallingAdapter, number: SignedNumber, event: ConnectEvent): void {
    if (this.calls.has(event.callId)) return; // a redelivered webhook
    // Registered before anything is awaited, so a terminate webhook right behind the connect finds it.
    const answered: Answered = {
      room: null,
      leg: null,
      call: null,
      endedByPlatform: false,
      hungUp: new AbortController(),
      endReason: "caller_hangup",
    };
    this.calls.set(event.callId, answered);
    void this.run(adapter, number, event, answered).catch(async (error: unknown) => {
      if (this.calls.get(event.callId) === answered) this.calls.delete(event.callId);
      answered.leg?.close();
      if (error instanceof HungUpWhileConnecting) {
        this.ctx.calls.log.info(
          { platformCallId: event.callId, callId: answered.room?.callId, endReason: answered.endReason },
          "the WhatsApp call ended before it connected",
        );
        if (answered.room) await this.ctx.calls.expireRoom(answered.room, answered.endReason);
        return;
      }
      // The caller is lost: an error, with the workspace and platform that failed.
      this.ctx.calls.log.error(
        {
          workspaceId: number.record.workspaceId,
          callId: answered.room?.callId,
          provider: PROVIDER,
          platformCallId: event.callId,
          ...failureFields(error),
        },
        "could not answer the WhatsApp call",
      );
    });
  }

  /** The platform says the call ended (the caller hung up). */
  ended(callId: string, reason: CallEndReason = "caller_hangup"): void {
    const answered = this.calls.get(callId);
    if (!answered) return;
    this.calls.delete(callId);
    answered.endedByPlatform = true;
    answered.endReason = reason;
    if (answered.call) void answered.call.hangup(reason);
    else answered.hungUp.abort();
  }

  /** Shutdown: live calls end, calls still connecting free their rooms (closed as server_shutdown). */
  async endAll(): Promise<void> {
    await Promise.all([...this.calls.keys()].map(async (id) => this.ended(id, "server_shutdown")));
  }

  private async run(
    adapter: CallingAdapter,
    number: SignedNumber,
    event: ConnectEvent,
    answered: Answered,
  ): Promise<void> {
    const { record } = number;
    const { signal } = answered.hungUp;
    const account = accountOf(this.ctx, record, number.accessToken);
    const where = { workspaceId: record.workspaceId, provider: PROVIDER, platformCallId: event.callId };
    const hangUp = () =>
      adapter.terminate(account, event.callId).catch((error: unknown) => {
        this.ctx.calls.log.warn(
          { ...where, callId: answered.room?.callId, ...failureFields(error) },
          "could not terminate the WhatsApp call",
        );
      });
    const decline = () =>
      adapter.reject(account, event.callId).catch((error: unknown) => {
        this.ctx.calls.log.warn({ ...where, ...failureFields(error) }, "could not reject the WhatsApp call");
      });
    /** Stops here when the caller has hung up meanwhile (the catch in `answer` frees what was taken). */
    const stillCalling = () => {
      if (signal.aborted) throw new HungUpWhileConnecting();
    };
    const tenant = { workspaceId: record.workspaceId };
    // A squad answers at its first member (issue 31), as on every other kind of number.
    const squad = record.squadId ? await squadEntry(this.ctx.db, tenant, record.squadId) : undefined;
    const agentId = squad?.member.assistant_id ?? record.agentId;
    if (!agentId) {
      this.calls.delete(event.callId);
      await decline();
      return;
    }
    const origin: CallOrigin = {
      channel: CHANNEL,
      direction: "inbound",
      from: event.from,
      to: record.number,
      telephonyPerMinute: 0,
    };
    try {
      answered.room = await this.ctx.calls.openCallRoom(tenant, { agentId, ...origin });
    } catch (error) {
      stillCalling();
      this.calls.delete(event.callId);
      await decline(); // over the concurrency limit, out of minutes, or missing keys
      throw error;
    }
    const room = answered.room;
    try {
      if (squad)
        await recordCallSquad(this.ctx.db, tenant, {
          callId: room.callId,
          squadId: squad.id,
          member: squad.member.name,
        });
      await this.ctx.calls.state.setCarrier(room, room.callId, {
        provider: PROVIDER,
        providerCallId: event.callId,
        phoneNumberId: record.id,
      });
    } catch (error) {
      stillCalling();
      this.calls.delete(event.callId);
      await this.ctx.calls.expireRoom(room, "error");
      await decline();
      throw error;
    }
    stillCalling();
    if (!(await this.connect(adapter, account, event, answered, room))) {
      await hangUp();
      return;
    }
    const leg = answered.leg;
    if (!leg) return;
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
    // A terminate that came while the live call was starting aborted the signal instead of hanging up.
    if (signal.aborted) void call.hangup(answered.endReason);
  }

  /**
   * Answers the offer, pre-accepts and accepts, and waits for media. False (room freed) when it
   * fails; throws HungUpWhileConnecting when the caller hangs up meanwhile.
   */
  private async connect(
    adapter: CallingAdapter,
    account: ReturnType<typeof accountOf>,
    event: ConnectEvent,
    answered: Answered,
    room: Room,
  ): Promise<boolean> {
    const hungUp = untilHungUp(answered.hungUp.signal);
    hungUp.catch(() => undefined); // awaited only in the races below
    try {
      const answer = await Promise.race([
        WebrtcAudioLeg.answer(event.sdp, { iceServers: this.ctx.config.whatsapp.iceServers }).then((made) => {
          // A leg made after the caller hung up is closed here: nobody else holds it.
          if (answered.hungUp.signal.aborted) made.leg.close();
          return made;
        }),
        hungUp,
      ]);
      answered.leg = answer.leg;
      await Promise.race([adapter.preAccept(account, event.callId, answer.sdp), hungUp]);
      await Promise.race([adapter.accept(account, event.callId, answer.sdp), hungUp]);
      await within(Promise.race([answer.leg.connected, hungUp]), CONNECT_TIMEOUT_MS, "connecting the call's media");
      return true;
    } catch (error) {
      if (error instanceof HungUpWhileConnecting) throw error;
      this.ctx.calls.log.error(
        {
          workspaceId: room.workspaceId,
          callId: room.callId,
          provider: PROVIDER,
          platformCallId: event.callId,
          ...failureFields(error),
        },
        "the WhatsApp call's media did not connect",
      );
      this.calls.delete(event.callId);
      answered.leg?.close();
      await this.ctx.calls.expireRoom(room, "error");
      return false;
    }
  }
}
