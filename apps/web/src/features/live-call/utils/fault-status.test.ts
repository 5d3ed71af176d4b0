import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { FaultAction, FaultKind, FaultStage } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { FAULT_STATUS_KEYS, faultStatus } from "./fault-status.ts";

const localesDir = path.join(import.meta.dirname, "..", "locales");
const english = JSON.parse(readFileSync(path.join(localesDir, "en.json"), "utf8")) as Record<string, unknown>;
const textAt = (strings: Record<string, unknown>, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], strings);
const say = (fault: Parameters<typeof faultStatus>[0]) => {
  const status = faultStatus(fault);
  const stage = status.stageKey ? String(textAt(english, status.stageKey)) : "";
  return String(textAt(english, status.key)).replace("{{stage}}", stage);
};

describe("the live panel's line about a failing provider", () => {
  it("says the model is not answering and what the call does about it", () => {
    expect(say({ stage: "llm", kind: "timeout", action: "fallback" })).toBe(
      "The model is not answering — trying the backup",
    );
    expect(say({ stage: "llm", kind: "unreachable", action: "retried" })).toBe("The model is not answering — retrying");
    expect(say({ stage: "llm", kind: "timeout", action: "recovered" })).toBe("The model is not answering — retrying");
  });

  it("names the transcriber, the voice and a tool", () => {
    expect(say({ stage: "stt", kind: "stream_cut", action: "retried" })).toBe("The transcriber stopped — reconnecting");
    expect(say({ stage: "tts", kind: "server_error", action: "fallback" })).toBe(
      "The voice failed — using the backup voice",
    );
    expect(say({ stage: "tool", kind: "timeout", action: "skipped" })).toBe("A tool timed out");
    expect(say({ stage: "tool", kind: "server_error", action: "recovered" })).toBe("A tool failed");
  });

  it("says which stage failed when the call gives up, and keeps that line", () => {
    const status = faultStatus({ stage: "stt", kind: "silent", action: "gave_up" });
    expect(status.final).toBe(true);
    expect(say({ stage: "stt", kind: "silent", action: "gave_up" })).toBe(
      "The assistant could not continue: the transcriber failed",
    );
    expect(faultStatus({ stage: "llm", kind: "timeout", action: "fallback" }).final).toBe(false);
  });

  it("has words for every stage, kind and action in every language", () => {
    const keys = new Set<string>();
    for (const stage of FaultStage.options)
      for (const kind of FaultKind.options)
        for (const action of FaultAction.options) {
          const status = faultStatus({ stage, kind, action });
          keys.add(status.key);
          if (status.stageKey) keys.add(status.stageKey);
        }
    expect([...keys].filter((key) => !FAULT_STATUS_KEYS.includes(key))).toEqual([]);
    for (const file of readdirSync(localesDir).filter((name) => name.endsWith(".json"))) {
      const strings = JSON.parse(readFileSync(path.join(localesDir, file), "utf8")) as Record<string, unknown>;
      const missing = FAULT_STATUS_KEYS.filter((key) => typeof textAt(strings, key) !== "string");
      expect({ file, missing }).toEqual({ file, missing: [] });
    }
  });
});
