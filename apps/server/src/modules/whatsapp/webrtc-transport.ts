import type { RealtimeServerMessage } from "@parley/contract";
import type { CallEvent } from "@parley/engine";
import type { WebrtcAudioLeg } from "@parley/engine/webrtc";
import type { CallTransport } from "../calls/runtime.ts";

/**
 * A live call's transport over a WebRTC audio leg: the assistant's audio goes out as Opus, the
 * browser-only messages (transcripts, metrics) have nowhere to go, and the end of the call hangs the
 * platform's call up (`hangUp`, once).
 */
export class WebrtcTransport implements CallTransport {
  private closed = false;

  constructor(
    private readonly leg: WebrtcAudioLeg,
    private readonly hangUp: () => Promise<void>,
  ) {}

  send(_message: RealtimeServerMessage): void {}

  sendAudio(pcm: Int16Array): void {
    this.leg.sendAudio(pcm);
  }

  /** Barge-in: drop the partial frame still waiting (the engine stops the rest itself). */
  control(event: CallEvent): void {
    if (event.type === "interruption") this.leg.clearPending();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    void this.hangUp().finally(() => this.leg.close());
  }
}
