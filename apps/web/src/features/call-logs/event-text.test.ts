import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { CallEndReason, CallLogEvent, FaultAction, FaultKind, FaultStage } from "@parley/contract";
import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { eventText } from "./event-text.ts";

const localesDir = path.join(import.meta.dirname, "locales");
const strings = (file: string) => JSON.parse(readFileSync(path.join(localesDir, file), "utf8"));
const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    lng: "en",
    resources: { en: { "call-logs": strings("en.json") } },
    defaultNS: "call-logs",
    interpolation: { escapeValue: false },
  });
});
const say = (event: unknown) => eventText(CallLogEvent.parse(event), i18n.getFixedT("en", "call-logs"));

describe("the call page's timeline", () => {
  it("names the stage, provider, kind of fault, what the call did and the error", () => {
    const fault = say({
      type: "fault",
      stage: "llm",
      provider: "openai",
      kind: "unreachable",
      action: "fallback",
      error: "getaddrinfo ENOTFOUND api.example.test",
      at_ms: 4200,
    });
    expect(fault.text).toBe("Model (OpenAI): could not be reached — switched to the backup");
    expect(fault.detail).toBe("getaddrinfo ENOTFOUND api.example.test");
    expect(
      say({
        type: "fault",
        stage: "tool",
        provider: "lookup_order",
        kind: "timeout",
        action: "skipped",
        error: "",
        at_ms: 1,
      }).text,
    ).toBe("Tool (lookup_order): too slow to answer — skipped");
  });

  it("says which side-effect tool was not run and why", () => {
    const skipped = say({
      type: "tool_skipped",
      name: "end_call",
      reason: "The caller interrupted the reply before it was heard.",
      at_ms: 9000,
    });
    expect(skipped.text).toBe("end_call not run: The caller interrupted the reply before it was heard.");
  });

  it("says how a call whose end reason reports a fault really ended", () => {
    expect(say({ type: "ended", reason: "caller_hangup", at_ms: 60_000 }).text).toBe("Call ended: Caller hung up");
  });

  it("keeps the earlier events' words", () => {
    expect(say({ type: "interruption", heard_text: "", at_ms: 1 }).text).toBe(
      "Caller interrupted before a word of the reply was heard",
    );
    expect(say({ type: "interruption", heard_text: " Your appointment ", at_ms: 1 }).text).toBe(
      "Caller interrupted “Your appointment”",
    );
  });
});

describe("the call logs' words for faults", () => {
  const keyed = (values: readonly string[], group: string) => values.map((value) => `${group}.${value}`);
  const needed = [
    ...keyed(CallEndReason.options, "reasons"),
    ...keyed(FaultStage.options, "faultStages"),
    ...keyed(FaultKind.options, "faultKinds"),
    ...keyed(FaultAction.options, "faultActions"),
    "events.fault",
    "events.tool_skipped",
    "events.ended",
    "detail.endedAs",
  ];
  for (const file of readdirSync(localesDir).filter((name) => name.endsWith(".json"))) {
    it(`are all in ${file}`, () => {
      const all = strings(file);
      const at = (key: string) => key.split(".").reduce((node, part) => node?.[part], all);
      expect(needed.filter((key) => typeof at(key) !== "string")).toEqual([]);
    });
  }
});
