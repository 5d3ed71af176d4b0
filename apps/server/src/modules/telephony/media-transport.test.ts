import type { StreamCodec } from "@parley/engine";
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import type { WebSocket } from "ws";
import type { CallControl } from "./call-control.ts";
import { MediaStreamTransport } from "./media-transport.ts";

/** A socket that keeps what was written, and a codec whose messages say what they carry. */
function transport() {
  const written: string[] = [];
  const socket = { readyState: 1, send: (message: string) => written.push(message) } as unknown as WebSocket;
  const codec: StreamCodec = {
    decode: () => [],
    encodeAudio: (pcm) => [pcm.some((s) => s !== 0) ? "sound" : "silence"],
    encodeMark: (name) => `mark:${name}`,
    encodeClear: () => "clear",
  };
  const log = { debug: () => {} } as unknown as FastifyBaseLogger;
  return { written, media: new MediaStreamTransport(socket, codec, {} as CallControl, log) };
}

const quiet = () => new Int16Array(320);
const sound = () => new Int16Array(320).fill(1000);

describe("MediaStreamTransport audio out", () => {
  it("writes a new stream's first second whole, then the assistant's silence only as a keepalive every 200 ms", () => {
    const { written, media } = transport();
    for (let i = 0; i < 50; i += 1) media.sendAudio(quiet());
    expect(written.filter((m) => m === "silence")).toHaveLength(50);
    written.length = 0;
    for (let i = 0; i < 100; i += 1) media.sendAudio(quiet());
    // Frames 51–150 of one quiet run: every tenth (60th, 70th … 150th) goes out, each with a mark.
    expect(written.filter((m) => m === "silence")).toHaveLength(10);
    expect(written.filter((m) => m.startsWith("mark:"))).toHaveLength(10);
  });

  it("writes speech and the first silent frame after it (the resampler's tail), with marks only for audio sent", () => {
    const { written, media } = transport();
    for (let i = 0; i < 50; i += 1) media.sendAudio(quiet());
    written.length = 0;
    for (let i = 0; i < 5; i += 1) media.sendAudio(sound());
    for (let i = 0; i < 9; i += 1) media.sendAudio(quiet());
    expect(written).toEqual([...Array(5).fill("sound"), "silence", "mark:parley-6"]);
  });
});
