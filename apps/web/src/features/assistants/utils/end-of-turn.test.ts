import { type Assistant, AssistantFields } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { numberBounds } from "../../../lib/number-bounds.ts";
import { AssistantForm, tabOfField, toFormValues, toUpdateBody } from "./assistant-form.ts";

const saved: Assistant = {
  ...AssistantFields.parse({ name: "Front desk" }),
  id: "a1",
  temp: false,
  stt_provider_config: AssistantFields.parse({ name: "x" }).stt_provider_config,
  transfer_config: [],
  created_at: "2025-01-01T00:00:00Z",
  updated_at: "2025-01-01T00:00:00Z",
};

const WAITS = ["end_of_turn_punctuation_ms", "end_of_turn_no_punctuation_ms", "end_of_turn_number_ms"] as const;

describe("the editor's end-of-turn settings", () => {
  it("start from the contract's defaults and are saved with the assistant", () => {
    const body = toUpdateBody(AssistantForm.parse(toFormValues(saved)));
    expect(body).toMatchObject({
      end_of_turn_punctuation_ms: 100,
      end_of_turn_no_punctuation_ms: 1500,
      end_of_turn_number_ms: 500,
      end_of_turn_vendor_events: true,
    });
  });

  it.each(WAITS)("read %s from the number input and hold it to the contract's bounds", (name) => {
    const { min, max } = numberBounds(AssistantFields.shape[name]);
    if (min === undefined || max === undefined) throw new Error(`${name} has no bounds in the contract`);
    const typed = (value: string) => AssistantForm.safeParse({ ...toFormValues(saved), [name]: value });
    expect(typed("250").data?.[name]).toBe(250);
    expect(typed(String(max)).success).toBe(true);
    expect(typed(String(min)).success).toBe(true);
    for (const bad of ["", String(max + 1), String(min - 1), "12.5"]) {
      expect(
        typed(bad).error?.issues.map((i) => i.path.join(".")),
        bad,
      ).toEqual([name]);
    }
  });

  it("turn the transcriber's own end-of-turn signal off", () => {
    const values = AssistantForm.parse({ ...toFormValues(saved), end_of_turn_vendor_events: false });
    expect(toUpdateBody(values).end_of_turn_vendor_events).toBe(false);
  });

  it("live on the model tab, beside interruption sensitivity, so a failed save opens it", () => {
    for (const name of [...WAITS, "end_of_turn_vendor_events", "interruption_sensitivity"]) {
      expect(tabOfField(name), name).toBe("model");
    }
  });
});
