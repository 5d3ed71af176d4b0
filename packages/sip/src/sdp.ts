import type { G711Codec } from "./g711.ts";

/**
 * SDP offer/answer (RFC 4566, RFC 3264) for one audio stream: G.711 μ-law (PT 0) or A-law (PT 8)
 * and RFC 4733 telephone-event (PT 101 when Parley offers; whatever the peer offered otherwise).
 */

export interface SdpMedia {
  type: string;
  port: number;
  payloads: number[];
  /** Payload type → "encoding/rate". */
  rtpmap: Map<number, string>;
  /** Connection address of this media line, else the session's. */
  address: string | null;
  direction: (typeof DIRECTIONS)[number];
}

const DIRECTIONS = ["sendrecv", "sendonly", "recvonly", "inactive"] as const;

export interface Sdp {
  address: string | null;
  media: SdpMedia[];
}

export function parseSdp(text: string): Sdp {
  const sdp: Sdp = { address: null, media: [] };
  let current: SdpMedia | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const type = line[0];
    const value = line.slice(2);
    if (type === "m") {
      const [media = "", port = "0", , ...formats] = value.split(/\s+/);
      current = {
        type: media,
        port: Number(port),
        payloads: formats.map(Number).filter((n) => Number.isInteger(n)),
        rtpmap: new Map(),
        address: null,
        direction: "sendrecv",
      };
      sdp.media.push(current);
    } else if (type === "c") {
      const address = value.split(/\s+/)[2] ?? null;
      if (current) current.address = address;
      else sdp.address = address;
    } else if (type === "a" && current) {
      const rtpmap = /^rtpmap:(\d+)\s+(\S+)/i.exec(value);
      if (rtpmap?.[1] && rtpmap[2]) current.rtpmap.set(Number(rtpmap[1]), rtpmap[2]);
      else {
        const direction = DIRECTIONS.find((d) => d === value);
        if (direction) current.direction = direction;
      }
    }
  }
  return sdp;
}

/** What one side of a call sends and receives, as agreed. */
export interface MediaAgreement {
  codec: G711Codec;
  payloadType: 0 | 8;
  /** The telephone-event payload type, or null when the peer did not offer RFC 4733. */
  dtmfPayloadType: number | null;
  remote: { address: string; port: number };
}

const STATIC_NAMES: Record<number, string> = { 0: "PCMU/8000", 8: "PCMA/8000" };

function encodingOf(media: SdpMedia, pt: number): string {
  return (media.rtpmap.get(pt) ?? STATIC_NAMES[pt] ?? "").toUpperCase();
}

/** Reads the peer's audio line: the first G.711 codec it lists, and its telephone-event type. */
export function agreementFrom(sdp: Sdp): MediaAgreement | null {
  const audio = sdp.media.find((m) => m.type === "audio" && m.port > 0);
  const address = audio?.address ?? sdp.address;
  if (!audio || !address) return null;
  let chosen: 0 | 8 | null = null;
  for (const pt of audio.payloads) {
    const name = encodingOf(audio, pt);
    if (name.startsWith("PCMU/8000")) chosen = 0;
    else if (name.startsWith("PCMA/8000")) chosen = 8;
    if (chosen !== null) break;
  }
  if (chosen === null) return null;
  const dtmf = audio.payloads.find((pt) => encodingOf(audio, pt).startsWith("TELEPHONE-EVENT/8000")) ?? null;
  return {
    codec: chosen === 0 ? "PCMU" : "PCMA",
    payloadType: chosen,
    dtmfPayloadType: dtmf,
    remote: { address, port: audio.port },
  };
}

export interface LocalMedia {
  address: string;
  port: number;
  /** Session id/version for the o= line. */
  sessionId?: string;
}

function describe(local: LocalMedia, payloads: number[], dtmf: number | null): string {
  const ip = local.address.includes(":") ? "IP6" : "IP4";
  const session = local.sessionId ?? String(Date.now());
  const lines = [
    "v=0",
    `o=parley ${session} ${session} IN ${ip} ${local.address}`,
    "s=Parley",
    `c=IN ${ip} ${local.address}`,
    "t=0 0",
    `m=audio ${local.port} RTP/AVP ${[...payloads, ...(dtmf === null ? [] : [dtmf])].join(" ")}`,
  ];
  for (const pt of payloads) lines.push(`a=rtpmap:${pt} ${STATIC_NAMES[pt]}`);
  if (dtmf !== null) lines.push(`a=rtpmap:${dtmf} telephone-event/8000`, `a=fmtp:${dtmf} 0-16`);
  lines.push("a=ptime:20", "a=sendrecv");
  return `${lines.join("\r\n")}\r\n`;
}

/** Parley's offer: PCMU, PCMA and telephone-event 101. */
export function createOffer(local: LocalMedia): string {
  return describe(local, [0, 8], 101);
}

/** The answer to a peer's offer: the codec it prefers among G.711, its telephone-event type kept. */
export function createAnswer(offer: Sdp, local: LocalMedia): { sdp: string; agreement: MediaAgreement } | null {
  const agreement = agreementFrom(offer);
  if (!agreement) return null;
  return { sdp: describe(local, [agreement.payloadType], agreement.dtmfPayloadType), agreement };
}
