import { describe, expect, it } from "vitest";
import { classifyMediaError, MicrophoneError, openMicrophone } from "./microphone.ts";

const named = (name: string) => Object.assign(new Error(name), { name });
const track = (readyState: string) => ({ readyState, stop() {} });
const devices = (result: () => Promise<unknown>) => ({ getUserMedia: result }) as unknown as MediaDevices;

describe("microphone checks", () => {
  it.each([
    ["NotAllowedError", "denied"],
    ["NotFoundError", "no_device"],
    ["NotReadableError", "busy"],
    ["OverconstrainedError", "constraints"],
  ])("classifies %s as %s", (name, problem) => {
    expect(classifyMediaError(named(name))).toBe(problem);
  });

  it("reports an unsupported browser", async () => {
    await expect(openMicrophone(null as unknown as undefined)).rejects.toMatchObject({ problem: "unsupported" });
  });

  it("reports permission denied from getUserMedia", async () => {
    const media = devices(() => Promise.reject(named("NotAllowedError")));
    await expect(openMicrophone(media)).rejects.toBeInstanceOf(MicrophoneError);
    await expect(openMicrophone(media)).rejects.toMatchObject({ problem: "denied" });
  });

  it("reports a track that is not live", async () => {
    const stream = { getAudioTracks: () => [track("ended")], getTracks: () => [track("ended")] };
    await expect(openMicrophone(devices(async () => stream))).rejects.toMatchObject({ problem: "not_live" });
  });

  it("returns a live stream", async () => {
    const stream = { getAudioTracks: () => [track("live")], getTracks: () => [] };
    await expect(openMicrophone(devices(async () => stream))).resolves.toBe(stream);
  });
});
