import {
  ASSISTANT_DEFAULTS,
  type AssistantFields,
  FaultPolicy,
  LlmSettings,
  type ProviderSettings,
  providerLabel,
  SttSettings,
  type TransferDestination,
  TtsSettings,
} from "@parley/contract";
import type { BackgroundId } from "../audio/background.ts";
import { ProviderError } from "../providers/provider-error.ts";
import type { InterruptionSensitivity } from "../vad/turn-detector.ts";

export type VoicemailHandler = "hangup" | "leave_message";

/**
 * What one call runs on: the assistant's settings the engine reads, taken once when the call starts.
 * A switched-off behaviour is null (or empty), so the session never checks a flag and its data apart.
 */
export interface CallSettings {
  /** The model's instructions; the session appends the call's own context. */
  systemPrompt: string;
  /** Said as the call opens; null when the caller speaks first or there is nothing to say. */
  firstMessage: string | null;
  /** The three providers, each with its config checked by that provider's schema. */
  providers: ProviderSettings;
  /** Backups per stage, in the order they are tried after the main provider. */
  fallbacks: { llm: ProviderSettings["llm"][]; stt: ProviderSettings["stt"][]; tts: ProviderSettings["tts"][] };
  /** The fault policy: stage deadlines, the spoken recovery and how a call that cannot go on ends. */
  faults: FaultSettings;
  temperature: number;
  maxTokens: number;
  interruptionSensitivity: InterruptionSensitivity;
  /** End-of-turn waits from the end of the caller's speech, per transcript rule (end-of-turn.ts). */
  endOfTurn: { punctuationMs: number; noPunctuationMs: number; numberMs: number; vendorEvents: boolean };
  background: { id: BackgroundId; volume: number } | null;
  endCall: {
    /** Offer the model its end_call tool. */
    tool: boolean;
    /** Caller or assistant phrases that end the call. */
    phrases: string[];
    /** Said before hanging up. */
    goodbye: string;
  };
  /** Where the model may transfer the caller (its transfer_call tool); empty when transfers are off. */
  transferDestinations: TransferDestination[];
  /** What each key press tells the model; null when key presses are ignored. */
  dtmfMapping: Record<string, string> | null;
  /** What to do on reaching an answering machine; null when it is not looked for. */
  voicemail: { handler: VoicemailHandler; message: string } | null;
  maxDuration: {
    seconds: number;
    /** Share of the limit at which the warning is said. */
    warningShare: number;
    warningMessage: string;
  };
  /** The caller's silence: prompt after `seconds`, give up after `maxPrompts` unanswered prompts. */
  silence: { seconds: number; prompt: string; maxPrompts: number };
  /** Keep a recording of the call (never with HIPAA or PCI on). */
  record: boolean;
  /** PCI: card numbers are redacted from every event before it leaves the engine, and key presses are not kept. */
  redactCardNumbers: boolean;
  /**
   * The workspace's PII redaction (privacy settings; off for an assistant alone). `stored`: personal
   * data is masked in every event before it leaves the engine and its audio is silenced in the
   * recording; `model`: the caller's turns are masked before the model reads them too.
   */
  piiRedaction: PiiRedaction;
}

export interface PiiRedaction {
  stored: boolean;
  model: boolean;
  /** Where a phone number said without its country code is taken to be (from the assistant's language). */
  phoneRegion: string;
}

export interface FaultSettings {
  firstTokenTimeoutMs: number;
  firstAudioTimeoutMs: number;
  toolTimeoutMs: number;
  transcriberSilenceMs: number;
  recoveryMessage: string;
  goodbye: string;
  /** Where the caller is handed when the assistant gives up; null: say the goodbye and hang up. */
  transferNumber: string | null;
  /** Speak with the built-in offline voice when every voice of the chain fails. */
  lastResortVoice: boolean;
}

/** The fault policy as the engine reads it; assistants saved before it existed get its defaults. */
function faultSettingsOf(a: AssistantFields): FaultSettings {
  const p = FaultPolicy.parse(a.fault_policy ?? {});
  return {
    firstTokenTimeoutMs: p.first_token_timeout_ms,
    firstAudioTimeoutMs: p.first_audio_timeout_ms,
    toolTimeoutMs: p.tool_timeout_ms,
    transcriberSilenceMs: p.transcriber_silence_ms,
    recoveryMessage: p.recovery_message,
    goodbye: p.goodbye_message,
    transferNumber: p.give_up === "transfer" ? p.transfer_number : null,
    lastResortVoice: p.last_resort_voice,
  };
}

/**
 * The call settings of an assistant. Each provider config is checked with its provider's schema
 * here, once: a config that does not pass fails the call's start with a non-retryable error
 * naming the vendor. The transcriber's language defaults to the assistant's.
 */
export function callSettingsOf(a: AssistantFields): CallSettings {
  return {
    systemPrompt: a.system_prompt,
    firstMessage: a.first_speaker === "assistant" && a.first_message ? a.first_message : null,
    providers: {
      llm: settingsOf(LlmSettings, a.llm_provider, a.llm_provider_config),
      stt: settingsOf(SttSettings, a.stt_provider, { language: a.language, ...a.stt_provider_config }),
      tts: settingsOf(TtsSettings, a.tts_provider, a.tts_provider_config),
    },
    fallbacks: {
      llm: (a.fallback_providers?.llm ?? []).map((f) => settingsOf(LlmSettings, f.provider, f.config)),
      stt: (a.fallback_providers?.stt ?? []).map((f) =>
        settingsOf(SttSettings, f.provider, { ...f.config, language: a.language }),
      ),
      tts: (a.fallback_providers?.tts ?? []).map((f) => settingsOf(TtsSettings, f.provider, f.config)),
    },
    faults: faultSettingsOf(a),
    temperature: a.llm_temperature,
    maxTokens: a.llm_max_tokens,
    interruptionSensitivity: a.interruption_sensitivity,
    // Assistants saved before these settings existed read as the defaults.
    endOfTurn: {
      punctuationMs: a.end_of_turn_punctuation_ms ?? ASSISTANT_DEFAULTS.end_of_turn_punctuation_ms,
      noPunctuationMs: a.end_of_turn_no_punctuation_ms ?? ASSISTANT_DEFAULTS.end_of_turn_no_punctuation_ms,
      numberMs: a.end_of_turn_number_ms ?? ASSISTANT_DEFAULTS.end_of_turn_number_ms,
      vendorEvents: a.end_of_turn_vendor_events ?? true,
    },
    background: a.background_audio_id ? { id: a.background_audio_id, volume: a.background_audio_volume } : null,
    endCall: { tool: a.end_call_function, phrases: a.end_call_phrases, goodbye: a.end_call_goodbye_message },
    transferDestinations: a.call_transfer ? a.transfer_config : [],
    dtmfMapping: a.dtmf_enabled ? a.dtmf_mapping : null,
    voicemail: a.voicemail_detection ? { handler: a.voicemail_detection_handler, message: a.voicemail_message } : null,
    maxDuration: {
      seconds: a.max_call_duration,
      warningShare: a.max_call_duration_warning_percentage,
      warningMessage: a.max_call_duration_warning_message,
    },
    silence: { seconds: a.timeout_seconds, prompt: a.timeout_message, maxPrompts: a.timeout_max_attempts },
    record: a.audio_recording && !a.hippa_compliant && !a.pci_compliant,
    redactCardNumbers: a.pci_compliant,
    piiRedaction: { stored: false, model: false, phoneRegion: phoneRegionOf(a.language) },
  };
}

/** Countries of the languages whose callers' numbers are most likely local to one country. */
const LANGUAGE_REGIONS: Record<string, string> = {
  en: "US",
  de: "DE",
  fr: "FR",
  es: "ES",
  pt: "BR",
  hi: "IN",
  it: "IT",
  nl: "NL",
};

/** "en-GB" → GB, "de" → DE; US when the language says nothing of a country. */
function phoneRegionOf(language: string | undefined): string {
  const [lang = "", region] = (language ?? "").split(/[-_]/);
  if (region && /^[a-z]{2}$/i.test(region)) return region.toUpperCase();
  return LANGUAGE_REGIONS[lang.toLowerCase()] ?? "US";
}

/** The part of a zod schema used here (the engine takes no direct zod dependency). */
interface SettingsSchema<Settings> {
  safeParse(
    value: unknown,
  ):
    | { success: true; data: Settings }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

function settingsOf<Settings>(schema: SettingsSchema<Settings>, provider: string, config: unknown): Settings {
  const parsed = schema.safeParse({ provider, config });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // The schema checks `{ provider, config }`; the vendor's fields are what the message names.
  const path = issue?.path[0] === "config" ? issue.path.slice(1) : (issue?.path ?? []);
  const where = path.length > 0 ? `${path.map(String).join(".")}: ` : "";
  throw new ProviderError(
    providerLabel(provider),
    `invalid configuration: ${where}${issue?.message ?? "unknown problem"}`,
    false,
  );
}
