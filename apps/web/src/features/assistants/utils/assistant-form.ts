import {
  type Assistant,
  AssistantFields,
  enforceHipaa,
  LlmProviderConfig,
  STT_CONFIG_SCHEMAS,
  TransferDestination,
  TtsProviderConfig,
  type UpdateAssistantBody,
} from "@parley/contract";
import type { FieldPath } from "react-hook-form";
import { z } from "zod";
import { numberField } from "../../../components/number-field.ts";
import { llmNeedsBaseUrl, llmNeedsDeployment, ttsSettingFields } from "./provider-traits.ts";
import { BackupsForm, FaultPolicyForm, reliabilityFormValues } from "./reliability-form.ts";

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);
const optionalText = <T extends z.ZodType>(schema: T) => z.preprocess(emptyToUndefined, schema);
const requiredNumber = <T extends z.ZodType>(schema: T) =>
  numberField(schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema);

const f = AssistantFields.shape;

export const DTMF_KEYS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "*", "#"] as const;

/** The editor keeps the DTMF map as rows, so a key can be changed without losing its value. */
const DtmfRow = z.object({
  digit: z.string().regex(/^[0-9*#]$/, "DTMF keys are single digits 0-9, * or #"),
  value: z.string().trim().min(1, "Enter what this key means").max(300),
});

/**
 * The assistant editor's schema: the contract's AssistantFields, with number inputs converted from
 * text, empty optional texts dropped, the transcriber settings checked against their provider's own
 * schema, and the cross-field rules (compatible endpoints need a URL, HIPAA means no recording).
 */
export const AssistantForm = AssistantFields.extend({
  llm_provider_config: LlmProviderConfig.extend({
    base_url: optionalText(LlmProviderConfig.shape.base_url),
    deployment: optionalText(LlmProviderConfig.shape.deployment),
    api_version: optionalText(LlmProviderConfig.shape.api_version),
  }),
  llm_temperature: requiredNumber(f.llm_temperature),
  llm_max_tokens: requiredNumber(f.llm_max_tokens),
  end_of_turn_punctuation_ms: requiredNumber(f.end_of_turn_punctuation_ms),
  end_of_turn_no_punctuation_ms: requiredNumber(f.end_of_turn_no_punctuation_ms),
  end_of_turn_number_ms: requiredNumber(f.end_of_turn_number_ms),
  stt_provider_config: z.record(z.string(), z.unknown()),
  tts_provider_config: TtsProviderConfig.extend({
    language: optionalText(TtsProviderConfig.shape.language),
    encoding: optionalText(TtsProviderConfig.shape.encoding),
    emotion: optionalText(TtsProviderConfig.shape.emotion),
  }),
  transfer_config: z.array(TransferDestination).max(50),
  dtmf_mapping: z
    .array(DtmfRow)
    .max(12, "At most 12 DTMF keys")
    .superRefine((rows, ctx) => {
      rows.forEach((row, index) => {
        if (rows.findIndex((r) => r.digit === row.digit) !== index) {
          ctx.addIssue({ code: "custom", path: [index, "digit"], message: "Each key can be mapped once" });
        }
      });
    }),
  max_call_duration: requiredNumber(f.max_call_duration),
  timeout_seconds: requiredNumber(f.timeout_seconds),
  timeout_max_attempts: requiredNumber(f.timeout_max_attempts),
  fallback_providers: BackupsForm,
  fault_policy: FaultPolicyForm,
})
  .superRefine((values, ctx) => {
    const stt = STT_CONFIG_SCHEMAS[values.stt_provider].safeParse(values.stt_provider_config);
    if (!stt.success) {
      for (const issue of stt.error.issues) {
        ctx.addIssue({ code: "custom", path: ["stt_provider_config", ...issue.path], message: issue.message });
      }
    }
    if (llmNeedsBaseUrl(values.llm_provider) && !values.llm_provider_config.base_url) {
      ctx.addIssue({ code: "custom", path: ["llm_provider_config", "base_url"], message: "Base URL is required" });
    }
    if (llmNeedsDeployment(values.llm_provider) && !values.llm_provider_config.deployment) {
      ctx.addIssue({
        code: "custom",
        path: ["llm_provider_config", "deployment"],
        message: "Deployment is required",
      });
    }
  })
  .transform((values) => ({
    ...values,
    // The provider's schema fills in defaults and drops settings of other providers.
    stt_provider_config: STT_CONFIG_SCHEMAS[values.stt_provider].parse(values.stt_provider_config) as Record<
      string,
      unknown
    >,
  }));

export type AssistantFormInput = z.input<typeof AssistantForm>;
export type AssistantFormValues = z.output<typeof AssistantForm>;

/** What the editor starts from for a saved assistant. */
export function toFormValues(assistant: Assistant): AssistantFormInput {
  const { id: _id, temp: _temp, created_at: _c, updated_at: _u, dtmf_mapping, ...fields } = assistant;
  const llm = fields.llm_provider_config;
  const tts = fields.tts_provider_config;
  // The optional settings the editor has inputs for are keys even when unset: an input registers
  // its setting (as undefined) in the form's values, and a form reset after a save would otherwise
  // hold `emotion: undefined` against defaults without the key and count itself changed (issue 26:
  // "Unsaved changes" stayed once a voice without an emotion, such as eSpeak, was saved).
  return {
    ...fields,
    llm_provider_config: {
      ...llm,
      base_url: llm.base_url,
      deployment: llm.deployment,
      api_version: llm.api_version,
    },
    stt_provider_config: { ...fields.stt_provider_config },
    tts_provider_config: { ...tts, language: tts.language, encoding: tts.encoding, emotion: tts.emotion },
    // mode and briefing are keys even when unset, for the same reason.
    transfer_config: fields.transfer_config.map((d) => ({ ...d, mode: d.mode, briefing: d.briefing })),
    dtmf_mapping: Object.entries(dtmf_mapping).map(([digit, value]) => ({ digit, value })),
    end_call_phrases: [...fields.end_call_phrases],
    ...reliabilityFormValues(fields),
  };
}

/** The PATCH body for validated editor values. */
export function toUpdateBody(values: AssistantFormValues): UpdateAssistantBody {
  const { dtmf_mapping, ...rest } = enforceHipaa(values);
  return {
    ...rest,
    tts_provider_config:
      ttsSettingFields(rest.tts_provider).length > 0
        ? rest.tts_provider_config
        : withoutSettings(rest.tts_provider_config),
    dtmf_mapping: Object.fromEntries(dtmf_mapping.map((row) => [row.digit, row.value])),
  };
}

function withoutSettings(config: AssistantFormValues["tts_provider_config"]) {
  const { settings: _settings, ...rest } = config;
  return rest;
}

export const EDITOR_TABS = [
  "model",
  "transcriber",
  "voice",
  "transfer",
  "functions",
  "tools",
  "analysis",
  "reliability",
  "more",
  "versions",
] as const;
export type EditorTab = (typeof EDITOR_TABS)[number];

/** The tabs shown: a realtime assistant's model hears and speaks itself, so its pipeline transcriber and voice are hidden. */
export function visibleTabs(realtime: boolean): readonly EditorTab[] {
  return realtime ? EDITOR_TABS.filter((tab) => tab !== "transcriber" && tab !== "voice") : EDITOR_TABS;
}

const TAB_OF_FIELD: Partial<Record<keyof AssistantFormInput, EditorTab>> = {
  stt_provider: "transcriber",
  stt_provider_config: "transcriber",
  tts_provider: "voice",
  tts_provider_config: "voice",
  call_transfer: "transfer",
  transfer_config: "transfer",
  dtmf_enabled: "transfer",
  dtmf_mapping: "transfer",
  analysis: "analysis",
  fallback_providers: "reliability",
  fault_policy: "reliability",
};

/** The tab that shows a field (top-level or dotted path), so a failed save can open the first tab with a problem. */
export function tabOfField(path: string): EditorTab {
  const field = path.split(".")[0] ?? path;
  if (field in TAB_OF_FIELD) return TAB_OF_FIELD[field as keyof AssistantFormInput] ?? "model";
  const modelFields = [
    "name",
    "first_message",
    "first_speaker",
    "system_prompt",
    "language",
    "engine_mode",
    "realtime",
  ];
  // Turn-taking (interruptions, end of turn) sits with the model's conversation settings.
  const turnTaking = field === "interruption_sensitivity" || field.startsWith("end_of_turn_");
  if (modelFields.includes(field) || field.startsWith("llm_") || turnTaking) return "model";
  return "more";
}

/** Whether an API field name (dotted for nested ones) is a field of this form, so its error can sit on it. */
export function isFormField(values: AssistantFormInput, field: string): field is FieldPath<AssistantFormInput> {
  let node: unknown = values;
  for (const key of field.split(".")) {
    if (node === null || typeof node !== "object" || !(key in node)) return false;
    node = Reflect.get(node, key);
  }
  return true;
}
