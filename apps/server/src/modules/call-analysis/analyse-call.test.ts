import { AnalysisSettings, type TranscriptEntry } from "@parley/contract";
import type { ChatMessage } from "@parley/engine";
import { describe, expect, it } from "vitest";
import { analyseTranscript, type Complete } from "./analyse-call.ts";

const transcript: TranscriptEntry[] = [
  { role: "assistant", text: "Bella Cucina, how can I help?", at_ms: 0 },
  { role: "user", text: "A table for four on Friday, name is Ada.", at_ms: 2000 },
  { role: "assistant", text: "Booked: four people, Friday at eight.", at_ms: 4000 },
];

const settings = AnalysisSettings.parse({
  summary: { enabled: true, prompt: "Mention the party size." },
  success_evaluation: { enabled: true, rubric: "A table was booked.", scale: "numeric_1_10" },
  structured_data: {
    enabled: true,
    schema: {
      type: "object",
      properties: { name: { type: "string" }, party_size: { type: "integer" } },
      required: ["name"],
    },
  },
});

/** A model that answers each task from a queue of answers, recording what it was asked. */
function scriptedModel(answers: { summary?: string[]; success?: string[]; data?: string[] }) {
  const asked: ChatMessage[][] = [];
  const complete: Complete = async (messages) => {
    asked.push(messages);
    const system = messages[0]?.content ?? "";
    const queue = /evaluate/.test(system) ? answers.success : /extract/.test(system) ? answers.data : answers.summary;
    const answer = queue?.shift();
    if (answer === undefined) throw new Error(`no scripted answer for: ${system.slice(0, 60)}`);
    return answer;
  };
  return { complete, asked };
}

describe("analysing a transcript", () => {
  it("writes a summary, a verdict on the assistant's scale and the extracted data", async () => {
    const model = scriptedModel({
      summary: ["  Ada booked a table for four on Friday.  "],
      success: ['{"verdict": "8", "reason": "The table was booked."}'],
      data: ['```json\n{"name": "Ada", "party_size": 4}\n```'],
    });
    const parts = await analyseTranscript(model.complete, settings, transcript);
    expect(parts).toEqual({
      summary: "Ada booked a table for four on Friday.",
      success: { scale: "numeric_1_10", verdict: 8, passed: true, reason: "The table was booked." },
      structured_data: { name: "Ada", party_size: 4 },
      problems: [],
    });
    // The user's instructions are the model's task; the transcript is what it reads.
    expect(model.asked[0]?.[0]?.content).toContain("Mention the party size.");
    expect(model.asked[1]?.[0]?.content).toContain("A table was booked.");
    expect(model.asked[2]?.[0]?.content).toContain('"party_size"');
    expect(model.asked[0]?.[1]?.content).toContain("Caller: A table for four on Friday, name is Ada.");
  });

  it("shows the model what did not fit once, and takes its corrected answer", async () => {
    const model = scriptedModel({
      summary: ["Booked."],
      success: ['{"verdict": 11}', '{"verdict": 3, "reason": "Nothing was booked."}'],
      data: ['{"name": "Ada", "party_size": "four"}', '{"name": "Ada", "party_size": 4}'],
    });
    const parts = await analyseTranscript(model.complete, settings, transcript);
    expect(parts.success).toMatchObject({ verdict: 3, passed: false });
    expect(parts.structured_data).toEqual({ name: "Ada", party_size: 4 });
    const correction = model.asked.find((m) => m.length === 4 && /extract/.test(m[0]?.content ?? ""));
    expect(correction?.[3]?.content).toContain("$.party_size must be an integer");
  });

  it("keeps the parts that worked when an answer does not fit twice", async () => {
    const model = scriptedModel({
      summary: ["Booked."],
      success: ['{"verdict": 9, "reason": "Booked."}'],
      data: ["I cannot tell.", '{"party_size": 4}'],
    });
    const parts = await analyseTranscript(model.complete, settings, transcript);
    expect(parts.summary).toBe("Booked.");
    expect(parts.success?.verdict).toBe(9);
    expect(parts.structured_data).toBeNull();
    expect(parts.problems).toEqual([expect.stringMatching(/^Structured data: .*\$\.name is required/)]);
  });

  it("only runs what is enabled, and lets a failing model fail the whole analysis", async () => {
    const onlySummary = AnalysisSettings.parse({ summary: { enabled: true } });
    const model = scriptedModel({ summary: ["Short."] });
    expect(await analyseTranscript(model.complete, onlySummary, transcript)).toEqual({
      summary: "Short.",
      success: null,
      structured_data: null,
      problems: [],
    });
    expect(model.asked).toHaveLength(1);
    const down: Complete = async () => {
      throw new Error("connection refused");
    };
    await expect(analyseTranscript(down, onlySummary, transcript)).rejects.toThrow("connection refused");
  });
});
