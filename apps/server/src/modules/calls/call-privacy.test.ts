import { AssistantFields, type PrivacySettings } from "@parley/contract";
import { callSettingsOf } from "@parley/engine";
import { describe, expect, it } from "vitest";
import type { CallOutcome } from "../call-logs/service.ts";
import { keepsMetadataOnly, maskedWorkflowRecord, metadataOnly, withCallPrivacy } from "./call-privacy.ts";

const privacy = (over: Partial<PrivacySettings>): PrivacySettings => ({
  retention: {
    recordings: null,
    transcripts: null,
    tool_calls: null,
    analysis: null,
    webhook_bodies: null,
    document_files: null,
  },
  zero_retention: false,
  pii_redaction: "off",
  ...over,
});

describe("a call's privacy", () => {
  const settings = callSettingsOf(AssistantFields.parse({ name: "Desk", audio_recording: true }));

  it("turns the workspace's redaction into the engine's, and recording off under zero-retention", () => {
    expect(withCallPrivacy(settings, privacy({})).piiRedaction).toMatchObject({ stored: false, model: false });
    expect(withCallPrivacy(settings, privacy({ pii_redaction: "transcripts" })).piiRedaction).toMatchObject({
      stored: true,
      model: false,
    });
    const both = withCallPrivacy(settings, privacy({ pii_redaction: "transcripts_and_model" }));
    expect(both.piiRedaction).toMatchObject({ stored: true, model: true });
    expect(both.record).toBe(true);
    expect(withCallPrivacy(settings, privacy({ zero_retention: true })).record).toBe(false);
  });

  it("applies zero-retention to calls with someone on the line, not to a test suite's simulated caller", () => {
    expect(keepsMetadataOnly(privacy({ zero_retention: true }), "phone")).toBe(true);
    expect(keepsMetadataOnly(privacy({ zero_retention: true }), "web")).toBe(true);
    expect(keepsMetadataOnly(privacy({ zero_retention: true }), "test")).toBe(false);
    expect(keepsMetadataOnly(privacy({ zero_retention: false }), "phone")).toBe(false);
  });

  it("keeps only metadata in a zero-retention call's log", () => {
    const outcome: CallOutcome = {
      status: "completed",
      endReason: "caller_hangup",
      endedAt: new Date("2026-11-30T10:00:00Z"),
      durationSeconds: 42,
      cost: 0.12,
      costBreakdown: null,
      transcript: [{ role: "user", text: "jane@example.org", at_ms: 10 }],
      toolCalls: [{ name: "lookup", arguments: "{}", result: "ok", ok: true, duration_ms: 5, at_ms: 20 }],
      turnMetrics: [],
      events: [
        { type: "dtmf", direction: "in", digits: "4", at_ms: 1 },
        { type: "interruption", heard_text: "my card is", at_ms: 2 },
        { type: "ended", reason: "caller_hangup", at_ms: 3 },
        { type: "handoff", from: "a", to: "b", reason: "caller jane@example.org wants billing", at_ms: 4 },
      ],
      recordingPath: "recordings/w/c.wav",
      workflow: null,
      segments: null,
    };
    const kept = metadataOnly(outcome);
    expect(kept).toMatchObject({ status: "completed", endReason: "caller_hangup", durationSeconds: 42, cost: 0.12 });
    expect(kept).toMatchObject({ transcript: [], toolCalls: [], recordingPath: null, workflow: null });
    expect(kept.events).toEqual([
      { type: "ended", reason: "caller_hangup", at_ms: 3 },
      { type: "handoff", from: "a", to: "b", reason: "", at_ms: 4 },
    ]);
  });

  it("masks what a workflow's variables collected when the workspace redacts PII", () => {
    const record = maskedWorkflowRecord({
      workflow_id: "w",
      version: 1,
      path: [{ node_id: "a", node_name: "Ask", node_type: "conversation", entered_at_ms: 0, reason: "start" }],
      variables: { email: "jane@example.org", card: 4111111111111111, party: 4, confirmed: true, day: null },
    });
    expect(record.variables).toEqual({ email: "[EMAIL_1]", card: "[CARD_1]", party: 4, confirmed: true, day: null });
    expect(record.path[0]?.reason).toBe("start");
  });
});
