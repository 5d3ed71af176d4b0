import type { CallChannel, CallLogEvent, CallWorkflowRecord, PrivacySettings, WorkflowValue } from "@parley/contract";
import { type CallSettings, PiiVault } from "@parley/engine";
import type { CallOutcome } from "../call-logs/service.ts";

/**
 * The workspace's privacy settings (docs/privacy.md) as one call applies them: PII redaction in the
 * engine, and under zero-retention no recording and a log of metadata only.
 */

/** A call's settings with the workspace's PII redaction, and without a recording under zero-retention. */
export function withCallPrivacy(settings: CallSettings, privacy: PrivacySettings): CallSettings {
  const mode = privacy.pii_redaction;
  return {
    ...settings,
    record: settings.record && !privacy.zero_retention,
    piiRedaction: { ...settings.piiRedaction, stored: mode !== "off", model: mode === "transcripts_and_model" },
  };
}

/**
 * Whether a call keeps only its metadata: zero-retention is on and someone real is on the line. A
 * test suite's simulated call (channel `test`) says nothing of a person and is judged from its
 * transcript, so it is stored as before and the retention pass clears it within minutes.
 */
export function keepsMetadataOnly(privacy: PrivacySettings, channel: CallChannel): boolean {
  return privacy.zero_retention && channel !== "test";
}

/**
 * What a zero-retention call's log keeps: its time, duration, status, end reason, cost and turn
 * latencies, and the timeline events that say nothing of what was said (faults, fallbacks,
 * transfers, how it ended). Transcript, tool calls, key presses, the workflow's variables and the
 * hand-off reasons a model wrote are never written.
 */
export function metadataOnly(outcome: CallOutcome): CallOutcome {
  return {
    ...outcome,
    transcript: [],
    toolCalls: [],
    events: outcome.events.flatMap(withoutContent),
    recordingPath: null,
    workflow: null,
    segments: outcome.segments?.map((segment) => ({ ...segment, reason: null })) ?? null,
  };
}

/**
 * A workflow's record as a call with PII redaction stores it: the values its variables collected
 * from what the caller said, and the reasons on its path, masked like the transcript (a number
 * that holds personal data, a card number collected as a number, is stored as its placeholder).
 */
export function maskedWorkflowRecord(record: CallWorkflowRecord): CallWorkflowRecord {
  const vault = new PiiVault();
  const masked = (value: WorkflowValue): WorkflowValue => {
    if (typeof value !== "string" && typeof value !== "number") return value;
    const text = String(value);
    const safe = vault.mask(text);
    return safe === text ? value : safe;
  };
  return {
    ...record,
    variables: Object.fromEntries(Object.entries(record.variables).map(([name, value]) => [name, masked(value)])),
    path: record.path.map((step) => ({ ...step, reason: vault.mask(step.reason) })),
  };
}

function withoutContent(event: CallLogEvent): CallLogEvent[] {
  switch (event.type) {
    case "fault":
    case "provider_fallback":
    case "transfer":
    case "ended":
      return [event];
    case "handoff":
      return [{ ...event, reason: "" }];
    default:
      return [];
  }
}
