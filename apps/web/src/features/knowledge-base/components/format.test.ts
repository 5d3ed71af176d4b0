import { describe, expect, it } from "vitest";
import { formatBytes } from "./format.ts";

describe("formatBytes", () => {
  it("picks the unit and keeps one decimal below ten", () => {
    expect(formatBytes(12, "en")).toBe("12 byte");
    expect(formatBytes(1_234, "en")).toBe("1.2 kB");
    expect(formatBytes(340_000, "en")).toBe("340 kB");
    expect(formatBytes(10_500_000, "en")).toBe("11 MB");
  });
});
