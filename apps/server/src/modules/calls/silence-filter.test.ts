import { describe, expect, it } from "vitest";
import { QUIET_KEEPALIVE_FRAMES, silenceFilter } from "./realtime-messages.ts";

const quiet = () => new Int16Array(320);
const sound = () => new Int16Array(320).fill(500);

describe("silenceFilter", () => {
  it("writes sound, and the assistant's silence only as a keepalive every 200 ms", () => {
    const write = silenceFilter({ firstAfterSound: false });
    expect(write(sound())).toBe(true);
    const quietWrites = Array.from({ length: 3 * QUIET_KEEPALIVE_FRAMES }, () => write(quiet()));
    expect(quietWrites.filter(Boolean)).toHaveLength(3);
    expect(quietWrites.findIndex(Boolean)).toBe(QUIET_KEEPALIVE_FRAMES - 1);
    expect(write(sound())).toBe(true);
  });

  it("writes the first silent frame after sound when asked (a phone stream's resampler tail)", () => {
    const write = silenceFilter({ firstAfterSound: true });
    write(sound());
    expect(write(quiet())).toBe(true);
    expect(write(quiet())).toBe(false);
  });
});
