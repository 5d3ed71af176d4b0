import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CallChannel } from "@parley/contract";
import { describe, expect, it } from "vitest";

const dir = path.join(import.meta.dirname, "locales");

describe("home's recent calls", () => {
  // Each recent call names its channel with t(`channels.${call.channel}`); a gap shows the raw key.
  it.each(readdirSync(dir))("name every call channel of the contract in %s", (file) => {
    const strings = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { channels: Record<string, string> };
    const unnamed = CallChannel.options.filter((value) => !strings.channels[value]?.trim());
    expect(unnamed).toEqual([]);
  });
});
