import { type Assistant, AssistantFields } from "@parley/contract";
import { describe, expect, it } from "vitest";
import { visibleAssistants } from "../../../api/assistants.ts";
import { assistantSummary, duplicateBody, searchAssistants } from "./assistant-list.ts";

const make = (id: string, name: string, temp = false): Assistant => {
  const fields = AssistantFields.parse({ name });
  return {
    ...fields,
    id,
    temp,
    transfer_config: [],
    created_at: "2025-01-01T00:00:00Z",
    updated_at: "2025-01-01T00:00:00Z",
  };
};

describe("the assistants list", () => {
  it("hides assistants flagged temp", () => {
    expect(visibleAssistants([make("1", "Kept"), make("2", "Scratch", true)]).map((a) => a.id)).toEqual(["1"]);
  });

  it("searches names and models without regard to case", () => {
    const list = [make("1", "Front Desk"), make("2", "Sales line")];
    expect(searchAssistants(list, "desk").map((a) => a.id)).toEqual(["1"]);
    expect(searchAssistants(list, "GPT-4O").map((a) => a.id)).toEqual(["1", "2"]);
    expect(searchAssistants(list, "  ")).toHaveLength(2);
  });

  it("shows provider and model labels, and a custom model as stored", () => {
    const assistant = make("1", "Front Desk");
    const summary = assistantSummary(assistant);
    expect(summary.llm).not.toBe(assistant.llm_provider);
    expect(summary.model).not.toBe(assistant.llm_provider_config.model);
    expect(summary.tts).not.toBe(assistant.tts_provider);
    const custom = { ...assistant, llm_provider_config: { ...assistant.llm_provider_config, model: "llama3.2:3b" } };
    expect(assistantSummary(custom).model).toBe("llama3.2:3b");
    expect(searchAssistants([assistant], summary.tts.slice(0, 6))).toHaveLength(1);
  });

  it("duplicates every setting under a new name", () => {
    const original = make("1", "Front Desk");
    const body = duplicateBody(original, "Copy of Front Desk");
    expect(body).toMatchObject({ name: "Copy of Front Desk", llm_provider: original.llm_provider });
    expect(body).not.toHaveProperty("id");
    expect(body).not.toHaveProperty("temp");
  });
});
