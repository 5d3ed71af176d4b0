import { type AudioIo, createAudioIo, openMicrophone } from "@parley/browser-audio";
import type { RealtimeServerMessage, WidgetCallStarted } from "@parley/contract";
import { applyTranscript, cutAssistant, type Line } from "./transcript.ts";

export type CallStatus = "idle" | "connecting" | "connected" | "ended" | "failed";
export type AssistantState = "listening" | "thinking" | "speaking";

export interface CallView {
  status(status: CallStatus, problem?: unknown): void;
  assistant(state: AssistantState | null): void;
  lines(lines: Line[]): void;
  played(ms: number): void;
}

/** The server's refusal, in its own words (a busy line, an hour used up, a refused site). */
export class RefusedError extends Error {}

/**
 * One call at a time from the widget (spec §4 start order): check the microphone, ask the server
 * for the call (it answers with the room's one-use token), open the audio, then the socket.
 */
export class WidgetCall {
  private socket: WebSocket | null = null;
  private audio: AudioIo | null = null;
  private transcript: Line[] = [];
  private muted = false;

  constructor(
    private readonly server: string,
    private readonly key: string,
    private readonly view: CallView,
  ) {}

  async start(): Promise<void> {
    this.teardown();
    this.transcript = [];
    this.muted = false;
    this.view.lines([]);
    this.view.status("connecting");
    try {
      const microphone = await openMicrophone();
      let started: WidgetCallStarted;
      try {
        started = await this.requestCall();
      } catch (error) {
        for (const track of microphone.getTracks()) track.stop();
        throw error;
      }
      this.audio = await createAudioIo(microphone, (pcm) => {
        if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(pcm.buffer);
      });
      this.connect(started);
    } catch (error) {
      this.teardown();
      this.view.status("failed", error);
    }
  }

  private async requestCall(): Promise<WidgetCallStarted> {
    // No body and no custom header: a simple cross-origin request, without a preflight.
    const response = await fetch(`${this.server}/api/v1/widget/${encodeURIComponent(this.key)}/calls`, {
      method: "POST",
      credentials: "omit",
    });
    const body = (await response.json().catch(() => ({}))) as Partial<WidgetCallStarted> & { detail?: string };
    if (!response.ok || !body.access_token || !body.url) throw new RefusedError(body.detail ?? "");
    return body as WidgetCallStarted;
  }

  private connect(started: WidgetCallStarted) {
    const url = new URL(started.url, this.server);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.searchParams.set("token", started.access_token);
    const ws = new WebSocket(url);
    ws.binaryType = "arraybuffer";
    this.socket = ws;
    ws.onopen = () => this.view.status("connected");
    ws.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data === "string") this.onMessage(JSON.parse(event.data) as RealtimeServerMessage);
      else if (this.audio) {
        this.audio.play(new Int16Array(event.data));
        this.view.played(this.audio.playedMs());
      }
    };
    ws.onclose = (event) => {
      if (this.socket !== ws) return;
      this.teardown();
      const normal = event.code === 1000 || event.code === 1001;
      this.view.status(normal ? "ended" : "failed", normal ? undefined : new RefusedError(event.reason));
    };
  }

  private onMessage(message: RealtimeServerMessage) {
    if (message.type === "state") this.view.assistant(message.state);
    else if (message.type === "transcript") this.setLines(applyTranscript(this.transcript, message));
    else if (message.type === "interruption") {
      this.audio?.flush();
      this.setLines(cutAssistant(this.transcript, message.heard_text));
    }
  }

  private setLines(lines: Line[]) {
    this.transcript = lines;
    this.view.lines(lines);
  }

  toggleMute(): boolean {
    this.muted = !this.muted;
    this.audio?.setMuted(this.muted);
    if (this.socket?.readyState === WebSocket.OPEN)
      this.socket.send(JSON.stringify({ type: "mute", muted: this.muted }));
    return this.muted;
  }

  end() {
    this.teardown();
    this.view.status("ended");
  }

  private teardown() {
    const ws = this.socket;
    this.socket = null;
    if (ws && ws.readyState <= WebSocket.OPEN) {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "hangup" }));
      ws.close(1000);
    }
    void this.audio?.close();
    this.audio = null;
    this.view.assistant(null);
  }
}
