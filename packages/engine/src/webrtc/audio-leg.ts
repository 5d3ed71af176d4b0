import { type PeerConfig, RTCPeerConnection, type RTCRtpTransceiver, RtpHeader, RtpPacket, useOPUS } from "werift";
import { OPUS_FRAME_SAMPLES, OpusCodec } from "./opus-codec.ts";

/** How long a connection may stay "disconnected" (the far end gone quiet) before the leg gives up. */
const DISCONNECTED_GRACE_MS = 10_000;

/** Opus's RTP clock runs at 48 kHz whatever the audio rate: 960 ticks per 20 ms. */
const RTP_TICKS_PER_FRAME = 960;

export interface AudioLegOptions {
  /**
   * STUN/TURN servers as "stun:host:port" / "turn:host:port". Omitted, werift asks a public STUN
   * server for the public address (its 5 s timeout where there is no network); [] asks none.
   */
  iceServers?: Array<{ urls: string; username?: string; credential?: string }>;
  /** Addresses offered besides the machine's interfaces (127.0.0.1 for peers on the same host). */
  extraHostAddresses?: string[];
}

type LegState = "connecting" | "connected" | "closed";

/**
 * One WebRTC audio call leg: a peer connection with a single Opus audio stream, exchanging 16 kHz
 * PCM with its owner. Either side of the offer/answer can be built (the server answers a caller's
 * offer; a test phone makes one). Audio handed to sendAudio goes out at once, 20 ms per packet: the
 * caller of sendAudio paces it.
 */
export class WebrtcAudioLeg {
  private readonly codec = new OpusCodec();
  private readonly audioListeners = new Set<(pcm: Int16Array) => void>();
  private readonly closeListeners = new Set<() => void>();
  private pending = new Int16Array(0);
  private sequence = Math.floor(Math.random() * 0xffff);
  private timestamp = Math.floor(Math.random() * 0xffffffff);
  private firstPacket = true;
  private state: LegState = "connecting";
  private disconnectedTimer: NodeJS.Timeout | null = null;
  /** Resolves once media can flow; rejects when the connection fails first. */
  readonly connected: Promise<void>;

  private constructor(
    private readonly pc: RTCPeerConnection,
    private transceiver: RTCRtpTransceiver | null,
  ) {
    this.connected = new Promise((resolve, reject) => {
      pc.connectionStateChange.subscribe((state) => {
        if (this.disconnectedTimer) clearTimeout(this.disconnectedTimer);
        this.disconnectedTimer = null;
        if (state === "connected" && this.state === "connecting") {
          this.state = "connected";
          resolve();
        } else if (state === "disconnected") {
          // A far end that hung up without a word (or lost its network) ends the leg unless it comes back.
          this.disconnectedTimer = setTimeout(() => this.close(), DISCONNECTED_GRACE_MS);
          this.disconnectedTimer.unref();
        } else if (state === "failed" || state === "closed") {
          reject(new Error(`the WebRTC connection ${state}`));
          this.close();
        }
      });
    });
    // A rejection nobody awaits (the call ended first) is not an error of the process.
    this.connected.catch(() => undefined);
    pc.onTrack.subscribe((track) => {
      track.onReceiveRtp.subscribe((rtp) => this.receive(rtp.payload));
    });
  }

  /** Answers a remote offer; resolves with the leg and the complete SDP answer (all candidates in it). */
  static async answer(offerSdp: string, options: AudioLegOptions = {}): Promise<{ leg: WebrtcAudioLeg; sdp: string }> {
    const pc = new RTCPeerConnection(peerConfig(options));
    const leg = new WebrtcAudioLeg(pc, null);
    try {
      await pc.setRemoteDescription({ type: "offer", sdp: offerSdp });
      withoutFallbackStun(pc, options);
      const transceiver = pc.getTransceivers().find((t) => t.kind === "audio");
      if (!transceiver) throw new Error("the offer has no audio");
      transceiver.setDirection("sendrecv");
      leg.transceiver = transceiver;
      await pc.setLocalDescription(await pc.createAnswer());
      return { leg, sdp: localSdp(pc) };
    } catch (error) {
      leg.close();
      throw error;
    }
  }

  /** Makes an offer with one send-and-receive audio stream (the calling phone's side). */
  static async offer(options: AudioLegOptions = {}): Promise<{ leg: WebrtcAudioLeg; sdp: string }> {
    const pc = new RTCPeerConnection(peerConfig(options));
    const transceiver = pc.addTransceiver("audio", { direction: "sendrecv" });
    const leg = new WebrtcAudioLeg(pc, transceiver);
    withoutFallbackStun(pc, options);
    await pc.setLocalDescription(await pc.createOffer());
    return { leg, sdp: localSdp(pc) };
  }

  /** Completes an offer this leg made with the remote answer. */
  async acceptAnswer(sdp: string): Promise<void> {
    await this.pc.setRemoteDescription({ type: "answer", sdp });
  }

  /** Caller audio, decoded to 16 kHz PCM, one packet (usually 20 ms) at a time. */
  onAudio(listener: (pcm: Int16Array) => void): void {
    this.audioListeners.add(listener);
  }

  onClose(listener: () => void): void {
    if (this.state === "closed") listener();
    else this.closeListeners.add(listener);
  }

  get isClosed(): boolean {
    return this.state === "closed";
  }

  /** Sends 16 kHz PCM, 20 ms per Opus packet; a partial frame waits for the next call. */
  sendAudio(pcm: Int16Array): void {
    if (this.state !== "connected") return;
    const all = new Int16Array(this.pending.length + pcm.length);
    all.set(this.pending);
    all.set(pcm, this.pending.length);
    let offset = 0;
    for (; offset + OPUS_FRAME_SAMPLES <= all.length; offset += OPUS_FRAME_SAMPLES) {
      this.sendFrame(all.subarray(offset, offset + OPUS_FRAME_SAMPLES));
    }
    this.pending = all.slice(offset);
  }

  /** Drops a partial frame not yet sent (the assistant was interrupted). */
  clearPending(): void {
    this.pending = new Int16Array(0);
  }

  close(): void {
    if (this.state === "closed") return;
    this.state = "closed";
    if (this.disconnectedTimer) clearTimeout(this.disconnectedTimer);
    void this.pc.close().catch(() => undefined);
    this.codec.close();
    for (const listener of this.closeListeners) listener();
    this.closeListeners.clear();
    this.audioListeners.clear();
  }

  private sendFrame(frame: Int16Array): void {
    const sender = this.transceiver?.sender;
    const payloadType = sender?.codec?.payloadType;
    if (!sender || payloadType === undefined) return;
    const header = new RtpHeader({
      payloadType,
      sequenceNumber: this.sequence,
      timestamp: this.timestamp,
      ssrc: sender.ssrc,
      marker: this.firstPacket,
    });
    this.firstPacket = false;
    this.sequence = (this.sequence + 1) & 0xffff;
    this.timestamp = (this.timestamp + RTP_TICKS_PER_FRAME) >>> 0;
    void sender.sendRtp(new RtpPacket(header, this.codec.encode(frame))).catch(() => undefined);
  }

  private receive(payload: Buffer): void {
    if (this.state === "closed") return;
    const pcm = this.codec.decode(payload);
    if (pcm.length === 0) return;
    for (const listener of this.audioListeners) listener(pcm);
  }
}

function peerConfig(options: AudioLegOptions): Partial<PeerConfig> {
  return {
    codecs: { audio: [useOPUS()] },
    iceUseIpv6: false,
    ...(options.iceServers ? { iceServers: options.iceServers } : {}),
    ...(options.extraHostAddresses ? { iceAdditionalHostAddresses: options.extraHostAddresses } : {}),
  };
}

/**
 * werift 0.22 asks a public STUN server of its own choosing when it is given none (its ICE
 * connection falls back to one), and waits up to 5 s for the answer before the SDP is complete. A leg
 * given a list without a STUN server asks none: gathering ends as soon as the host candidates exist.
 */
function withoutFallbackStun(pc: RTCPeerConnection, options: AudioLegOptions): void {
  if (!options.iceServers || options.iceServers.some((server) => /^stuns?:/.test(server.urls))) return;
  for (const transport of pc.iceTransports) transport.connection.stunServer = undefined;
}

function localSdp(pc: RTCPeerConnection): string {
  const sdp = pc.localDescription?.sdp;
  if (!sdp) throw new Error("no local description was made");
  return sdp;
}
