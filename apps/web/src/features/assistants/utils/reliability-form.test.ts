import { type Assistant, AssistantFields, type FallbackProviders, type FaultPolicy } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { AssistantForm, isFormField, tabOfField, toFormValues, toUpdateBody } from "./assistant-form.ts";
import { msOfSeconds, newBackup, secondsText } from "./reliability-form.ts";

const fields = AssistantFields.parse({
  name: "Front desk",
  fallback_providers: {
    llm: [{ provider: "openai-compatible", config: { model: "backup", base_url: "http://127.0.0.1:9/v1" } }],
    stt: [],
    tts: [{ provider: "local", config: { model: "espeak-ng", voice: "en-gb" } }],
  },
  fault_policy: { first_token_timeout_ms: 2500, give_up: "transfer", transfer_number: "+14155550100" },
});
const saved: Assistant = {
  ...fields,
  id: "a1",
  temp: false,
  created_at: "2025-01-01T00:00:00Z",
  updated_at: "2025-01-01T00:00:00Z",
};

describe("the reliability settings in the editor", () => {
  it("save the backups and fault policy exactly as they were loaded", () => {
    const body = toUpdateBody(AssistantForm.parse(toFormValues(saved)));
    expect(body.fallback_providers).toEqual(saved.fallback_providers);
    expect(body.fault_policy).toEqual(saved.fault_policy);
  });

  it("hold the optional settings of each backup as keys, as the inputs register them", () => {
    const values = toFormValues(saved);
    expect(Object.keys(values.fallback_providers?.llm?.[0]?.config ?? {})).toEqual(
      expect.arrayContaining(["base_url", "deployment", "api_version"]),
    );
    expect(Object.keys(values.fallback_providers?.tts?.[0]?.config ?? {})).toEqual(
      expect.arrayContaining(["language", "encoding", "emotion"]),
    );
  });

  it("check a backup with its provider's own rules, on the backup's field", () => {
    const values = toFormValues(saved);
    const broken = {
      ...values,
      fallback_providers: {
        llm: [{ provider: "openai-compatible", config: { model: "backup", base_url: "" } }],
        stt: [],
        tts: [],
      },
    };
    const result = AssistantForm.safeParse(broken);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain("fallback_providers.llm.0.config.base_url");
    const tooMany = {
      ...values,
      fallback_providers: { llm: [], stt: [], tts: Array(4).fill(newBackup("tts", "local")) },
    };
    expect(AssistantForm.safeParse(tooMany).error?.issues.map((i) => i.path.join("."))).toContain(
      "fallback_providers.tts",
    );
  });

  it("drop empty optional texts of a backup and fill in its provider's defaults", () => {
    const values = toFormValues(saved);
    const body = toUpdateBody(
      AssistantForm.parse({
        ...values,
        fallback_providers: {
          llm: [],
          stt: [newBackup("stt", "local")],
          tts: [{ provider: "local", config: { model: "espeak-ng", voice: "en-us", language: "", emotion: "" } }],
        },
      }),
    );
    const backups = body.fallback_providers as FallbackProviders;
    expect(backups.tts[0]?.config).not.toHaveProperty("language");
    expect(backups.tts[0]?.config).toMatchObject({ speed: 1, sampleRate: expect.any(Number) });
    expect(backups.stt[0]?.provider).toBe("local");
  });

  it("ask for the number when a failed call is transferred, and check its form", () => {
    const values = toFormValues(saved);
    const policy = values.fault_policy as FaultPolicy;
    const without = AssistantForm.safeParse({ ...values, fault_policy: { ...policy, transfer_number: "" } });
    expect(without.error?.issues.map((i) => i.path.join("."))).toEqual(["fault_policy.transfer_number"]);
    const bad = AssistantForm.safeParse({ ...values, fault_policy: { ...policy, transfer_number: "555-0100" } });
    expect(bad.error?.issues[0]?.message).toMatch(/E\.164/);
    const goodbye = AssistantForm.parse({
      ...values,
      fault_policy: { ...policy, give_up: "goodbye", transfer_number: "" },
    });
    expect(goodbye.fault_policy.transfer_number).toBeNull();
  });

  it("keep each wait within the contract's bounds, in the seconds the inputs show", () => {
    const values = toFormValues(saved);
    const policy = values.fault_policy as FaultPolicy;
    const short = AssistantForm.safeParse({ ...values, fault_policy: { ...policy, first_token_timeout_ms: 200 } });
    expect(short.error?.issues[0]?.message).toBe("Enter between 0.5 and 30 seconds");
    const empty = AssistantForm.safeParse({ ...values, fault_policy: { ...policy, tool_timeout_ms: "" } });
    expect(empty.error?.issues.map((i) => i.path.join("."))).toEqual(["fault_policy.tool_timeout_ms"]);
  });

  it("show milliseconds as seconds and read typed seconds back", () => {
    expect(secondsText(2500)).toBe("2.5");
    expect(secondsText(undefined)).toBe("");
    expect(msOfSeconds("2.5")).toBe(2500);
    expect(msOfSeconds("0.1234")).toBe(123);
    expect(msOfSeconds(" ")).toBe("");
  });

  it("place the server's field errors on the reliability tab's fields", () => {
    const values = toFormValues(saved);
    expect(isFormField(values, "fault_policy.transfer_number")).toBe(true);
    expect(isFormField(values, "fallback_providers.llm.0.config.model")).toBe(true);
    expect(tabOfField("fault_policy.transfer_number")).toBe("reliability");
    expect(tabOfField("fallback_providers.tts.0.config.voice")).toBe("reliability");
  });
});
