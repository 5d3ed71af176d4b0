import { spawn } from "node:child_process";
import { createSocket, type Socket } from "node:dgram";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { g711Decode, g711Encode, parseRtp, serializeDtmf, serializeRtp } from "@parley/sip";

/** Runs sipp with a scenario; resolves with its exit code and output when it ends. */
export function runSipp(
  scenario: string,
  args: string[],
  timeoutSeconds = 30,
): { done: Promise<{ code: number | null; output: string }>; stop(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "parley-sipp-"));
  const file = path.join(dir, "scenario.xml");
  writeFileSync(file, scenario);
  const child = spawn(
    "sipp",
    [
      "-sf",
      file,
      "-m",
      "1",
      "-nostdin",
      "-timeout",
      `${timeoutSeconds}s`,
      "-timeout_error",
      "-trace_err",
      "-trace_msg",
      ...args,
    ],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const done = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("exit", (code) => resolve({ code, output })),
  );
  return { done, stop: () => void (child.exitCode === null && child.kill("SIGKILL")) };
}

/** The SDP body sipp sends, with the media pointed at a probe socket the test owns. */
export const sdpFor = (mediaPort: number) =>
  [
    "v=0",
    "o=sipp 1 1 IN IP4 127.0.0.1",
    "s=-",
    "c=IN IP4 127.0.0.1",
    "t=0 0",
    `m=audio ${mediaPort} RTP/AVP 0 101`,
    "a=rtpmap:0 PCMU/8000",
    "a=rtpmap:101 telephone-event/8000",
    "a=fmtp:101 0-16",
    "",
  ].join("\n");

/**
 * The caller's media end: a UDP socket that records Parley's RTP (μ-law) and sends RFC 4733 digits
 * back from the same address, as a phone would.
 */
export class MediaProbe {
  private readonly socket: Socket = createSocket("udp4");
  private peer: { address: string; port: number } | null = null;
  private peakLevel = 0;
  packets = 0;
  private sequence = 1000;

  async open(): Promise<number> {
    this.socket.on("message", (data, info) => {
      const packet = parseRtp(data);
      if (packet?.payloadType !== 0) return;
      this.peer ??= { address: info.address, port: info.port };
      this.packets += 1;
      for (const sample of g711Decode("PCMU", packet.payload))
        this.peakLevel = Math.max(this.peakLevel, Math.abs(sample));
    });
    await new Promise<void>((resolve) => this.socket.bind(0, "127.0.0.1", resolve));
    return this.socket.address().port;
  }

  /** Starts measuring the loudest sample afresh. */
  resetPeak(): void {
    this.peakLevel = 0;
  }

  /** The loudest sample received so far (silence is 0, speech thousands). */
  get peak(): number {
    return this.peakLevel;
  }

  /** Sends a digit as RFC 4733 events (payload type 101) to where Parley's RTP comes from. */
  async sendDigit(digit: string): Promise<void> {
    const peer = this.peer;
    if (!peer) throw new Error("no RTP from Parley yet");
    const timestamp = 160_000 + this.sequence * 160;
    const packets: Buffer[] = [];
    for (let i = 1; i <= 5; i += 1) {
      const end = i === 5;
      for (let r = 0; r < (end ? 3 : 1); r += 1) {
        const payload = serializeDtmf({ digit, end, volume: 10, duration: i * 160 });
        packets.push(
          serializeRtp({
            marker: i === 1,
            payloadType: 101,
            sequence: this.sequence++,
            timestamp,
            ssrc: 4242,
            payload,
          }),
        );
      }
    }
    for (const packet of packets) {
      await new Promise<void>((resolve) => this.socket.send(packet, peer.port, peer.address, () => resolve()));
    }
  }

  /** Sends 20 ms frames of a loud 1 kHz tone (μ-law) to Parley in real time until `done` or `frames` are sent. */
  async sendTone(frames: number, done: () => boolean = () => false): Promise<void> {
    const peer = this.peer;
    if (!peer) throw new Error("no RTP from Parley yet");
    const pcm = Int16Array.from({ length: 160 }, (_, i) =>
      Math.round(12_000 * Math.sin((2 * Math.PI * 1000 * i) / 8000)),
    );
    const payload = g711Encode("PCMU", pcm);
    for (let i = 0; i < frames && !done(); i += 1) {
      const packet = serializeRtp({
        marker: i === 0,
        payloadType: 0,
        sequence: this.sequence++,
        timestamp: i * 160,
        ssrc: 777,
        payload,
      });
      await new Promise<void>((resolve) => this.socket.send(packet, peer.port, peer.address, () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.socket.close();
  }
}
