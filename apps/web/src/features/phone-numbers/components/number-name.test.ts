import { describe, expect, it } from "vitest";
import { isolatedName, nameDirection } from "./number-name.ts";

describe("number names in right-to-left pages", () => {
  it("keep a name without letters left to right, and let other names follow their letters", () => {
    expect(nameDirection("+44 20 7946 0958")).toBe("ltr");
    expect(nameDirection("(415) 555-0100")).toBe("ltr");
    expect(nameDirection("Front desk")).toBe("auto");
    expect(nameDirection("مكتب الاستقبال")).toBe("auto");
  });

  it("isolate a number inside plain text", () => {
    expect(isolatedName("+442079460958")).toBe("\u2066+442079460958\u2069");
    expect(isolatedName("Sales")).toBe("Sales");
  });
});
