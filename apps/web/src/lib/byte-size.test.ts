import { describe, expect, it } from "vitest";
import { formatBytes } from "./byte-size.ts";

// Intl separates a number from its unit with a no-break space in some languages; compare the words.
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("formatBytes", () => {
  it("spells bytes out with the plural the number takes, in English", () => {
    expect(plain(formatBytes(96, "en"))).toBe("96 bytes");
    expect(plain(formatBytes(1, "en"))).toBe("1 byte");
    expect(plain(formatBytes(0, "en"))).toBe("0 bytes");
  });

  it("picks the unit and keeps one decimal below ten", () => {
    expect(plain(formatBytes(1_234, "en"))).toBe("1.2 kB");
    expect(plain(formatBytes(340_000, "en"))).toBe("340 kB");
    expect(plain(formatBytes(1_200_000, "en"))).toBe("1.2 MB");
    expect(plain(formatBytes(10_500_000, "en"))).toBe("11 MB");
  });

  it('reads a voice sample\'s size as a person says it, not "512 byte"', () => {
    expect(plain(formatBytes(512, "en"))).toBe("512 bytes");
    expect(plain(formatBytes(1_536, "en"))).toBe("1.5 kB");
    expect(plain(formatBytes(10 * 1024 * 1024, "en"))).toBe("10 MB");
  });

  it("reads as German in German", () => {
    expect(plain(formatBytes(96, "de"))).toBe("96 Byte");
    expect(plain(formatBytes(1_200_000, "de"))).toBe("1,2 MB");
    expect(plain(formatBytes(340_000, "de"))).toBe("340 kB");
  });
});
