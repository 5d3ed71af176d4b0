import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CallChannel } from "@parley/contract";
import { describe, expect, it } from "vitest";

const localesDir = path.join(import.meta.dirname, "locales");
/** Each language's `channel` labels, read as the page reads them (call-logs namespace, key channel.<value>). */
const labelsByLanguage = readdirSync(localesDir).map((file) => ({
  language: path.basename(file, ".json"),
  channel: (JSON.parse(readFileSync(path.join(localesDir, file), "utf8")) as { channel: Record<string, string> })
    .channel,
}));

describe("call log channel names", () => {
  // The list, its channel filter and the call's detail show t(`channel.${log.channel}`): a missing
  // label shows the raw key (channel.sip) instead of a name.
  it.each(labelsByLanguage)("name every channel the contract lets the server send, in $language", ({ channel }) => {
    expect(CallChannel.options.filter((value) => !channel[value]?.trim())).toEqual([]);
  });
});
