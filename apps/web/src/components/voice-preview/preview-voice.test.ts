import { describe, expect, it, vi } from "vitest";
import { NO_WORKSPACE, previewVoice } from "./preview-voice.ts";

vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: () => "blob:sample" }));

describe("voice preview", () => {
  it("needs a workspace id", async () => {
    const send = vi.fn();
    await expect(
      previewVoice({ provider: "local", model: "espeak-ng", voice: "en-us", workspace_id: null }, send),
    ).rejects.toThrow(NO_WORKSPACE);
    expect(send).not.toHaveBeenCalled();
  });

  it("reads the audio and the x-* headers", async () => {
    const send = vi.fn(
      async () =>
        new Response(new Uint8Array([1, 2]), {
          headers: { "x-duration": "2.25", "x-provider": "local", "x-model": "espeak-ng", "x-voice": "en-us" },
        }),
    );
    const sample = await previewVoice(
      { provider: "local", model: "espeak-ng", voice: "en-us", workspace_id: "w1" },
      send as never,
    );
    expect(send).toHaveBeenCalledWith("/tts/audio", expect.objectContaining({ method: "POST" }));
    expect(sample).toEqual({
      url: "blob:sample",
      durationSeconds: 2.25,
      provider: "local",
      model: "espeak-ng",
      voice: "en-us",
    });
  });
});
