import {
  ASSISTANT_DEFAULTS,
  type Assistant,
  type FallbackProviders,
  FaultGiveUp,
  FaultPolicy,
  LlmProviderId,
  LlmSettings,
  MAX_FALLBACK_PROVIDERS,
  SttProviderId,
  SttSettings,
  TtsProviderId,
  TtsSettings,
} from "@parley/contract";
import { z } from "zod";
import { numberField } from "../../../components/number-field.ts";
import { numberBounds } from "../../../lib/number-bounds.ts";
import { llmProviderChange, sttProviderChange, ttsProviderChange } from "./provider-change.ts";
import { llmNeedsBaseUrl, llmNeedsDeployment, ttsSettingFields } from "./provider-traits.ts";

export type BackupStage = keyof FallbackProviders;
export const BACKUP_STAGES = ["llm", "stt", "tts"] as const satisfies readonly BackupStage[];

/** The contract's schema of one backup per stage: the same per-provider schema the main provider is checked with. */
const SETTINGS = { llm: LlmSettings, stt: SttSettings, tts: TtsSettings } as const;

/**
 * A backup as the editor holds it: the provider id and its config as the stage's inputs fill it in
 * (texts may be empty, numbers may still be typed). The contract's schema checks it on save.
 */
const BackupEntry = z.object({ provider: z.string(), config: z.record(z.string(), z.unknown()) });
export type BackupEntryInput = z.input<typeof BackupEntry>;

const backupList = () => z.array(BackupEntry).max(MAX_FALLBACK_PROVIDERS, `At most ${MAX_FALLBACK_PROVIDERS} backups`);

/** Optional texts left empty in an input are unset, as they are for the main provider. */
function withoutEmptyTexts(config: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(config).filter(([, value]) => value !== "" && value !== undefined));
}

type Issue = { path: (string | number)[]; message: string };

/** What is wrong with one backup, with paths inside the entry (`config.model`), as the main provider's checks say it. */
export function backupIssues(stage: BackupStage, entry: BackupEntryInput): Issue[] {
  const parsed = SETTINGS[stage].safeParse({ provider: entry.provider, config: withoutEmptyTexts(entry.config) });
  const issues: Issue[] = parsed.success
    ? []
    : parsed.error.issues.map((issue) => ({
        path: issue.path.filter((key): key is string | number => typeof key !== "symbol"),
        message: issue.message,
      }));
  if (stage === "llm" && !entry.config.base_url && llmNeedsBaseUrl(entry.provider)) {
    issues.push({ path: ["config", "base_url"], message: "Base URL is required" });
  }
  if (stage === "llm" && !entry.config.deployment && llmNeedsDeployment(entry.provider)) {
    issues.push({ path: ["config", "deployment"], message: "Deployment is required" });
  }
  return issues;
}

/** A backup as the API takes it: parsed by its provider's schema (defaults filled, other providers' settings dropped). */
function savedBackup<S extends BackupStage>(stage: S, entry: BackupEntryInput): FallbackProviders[S][number] {
  const parsed = SETTINGS[stage].parse({ provider: entry.provider, config: withoutEmptyTexts(entry.config) });
  // A voice without vendor settings saves none, as the main voice does (toUpdateBody).
  if (stage === "tts" && ttsSettingFields(parsed.provider).length === 0 && "settings" in parsed.config) {
    const { settings: _settings, ...config } = parsed.config;
    return { ...parsed, config } as FallbackProviders[S][number];
  }
  return parsed as FallbackProviders[S][number];
}

/** A new backup of a stage: the provider given (the stage's own, to change from) with that provider's defaults. */
export function newBackup(stage: BackupStage, provider: unknown): BackupEntryInput {
  switch (stage) {
    case "llm": {
      const id = LlmProviderId.catch(ASSISTANT_DEFAULTS.llm_provider).parse(provider);
      return { provider: id, config: { ...llmProviderChange(id).llm_provider_config } };
    }
    case "stt": {
      const id = SttProviderId.catch(ASSISTANT_DEFAULTS.stt_provider).parse(provider);
      return { provider: id, config: { ...sttProviderChange(id).stt_provider_config } };
    }
    case "tts": {
      const id = TtsProviderId.catch(ASSISTANT_DEFAULTS.tts_provider).parse(provider);
      return { provider: id, config: { ...ttsProviderChange(id).tts_provider_config } };
    }
  }
}

export const BackupsForm = z
  .object({ llm: backupList(), stt: backupList(), tts: backupList() })
  .superRefine((backups, ctx) => {
    for (const stage of BACKUP_STAGES) {
      backups[stage].forEach((entry, index) => {
        for (const issue of backupIssues(stage, entry)) {
          ctx.addIssue({ code: "custom", path: [stage, index, ...issue.path], message: issue.message });
        }
      });
    }
  })
  .transform(
    (backups): FallbackProviders => ({
      llm: backups.llm.map((entry) => savedBackup("llm", entry)),
      stt: backups.stt.map((entry) => savedBackup("stt", entry)),
      tts: backups.tts.map((entry) => savedBackup("tts", entry)),
    }),
  );

const p = FaultPolicy.shape;

/** A wait of the fault policy, typed in seconds in the editor and saved in milliseconds. */
export const FAULT_WAITS = [
  "first_token_timeout_ms",
  "first_audio_timeout_ms",
  "tool_timeout_ms",
  "transcriber_silence_ms",
] as const;
export type FaultWait = (typeof FAULT_WAITS)[number];

/** A wait's bounds in seconds, from the contract's milliseconds. */
export function waitBoundsSeconds(wait: FaultWait): { min: number; max: number } {
  const { min = 0, max = 60_000 } = numberBounds(p[wait]);
  return { min: min / 1000, max: max / 1000 };
}

/** Milliseconds from the contract's rule, with the message in the seconds the editor shows. */
const waitMs = (wait: FaultWait) => {
  const { min, max } = waitBoundsSeconds(wait);
  const message = `Enter between ${min} and ${max} seconds`;
  return numberField(
    z
      .number({ error: message })
      .min(min * 1000, message)
      .max(max * 1000, message)
      .transform(Math.round),
  );
};

/**
 * The fault policy as the editor edits it: the waits as numbers (the inputs show them in seconds),
 * an empty transfer number as none, and the contract's rule that a transfer needs its number.
 */
export const FaultPolicyForm = z
  .object({
    first_token_timeout_ms: waitMs("first_token_timeout_ms"),
    first_audio_timeout_ms: waitMs("first_audio_timeout_ms"),
    tool_timeout_ms: waitMs("tool_timeout_ms"),
    transcriber_silence_ms: waitMs("transcriber_silence_ms"),
    recovery_message: p.recovery_message,
    give_up: FaultGiveUp,
    transfer_number: z.preprocess((value) => (value === "" || value === undefined ? null : value), p.transfer_number),
    goodbye_message: p.goodbye_message,
    last_resort_voice: z.boolean(),
  })
  .refine((policy) => policy.give_up !== "transfer" || policy.transfer_number !== null, {
    path: ["transfer_number"],
    message: "Enter the number to transfer to when the assistant cannot go on",
  });

/**
 * The saved backups and fault policy as the editor starts from them. The optional settings the
 * stage's inputs register are keys even when unset (as for the main providers), so a form reset
 * after a save equals what the inputs hold and the editor does not count itself changed.
 */
export function reliabilityFormValues(assistant: Pick<Assistant, "fallback_providers" | "fault_policy">) {
  const { llm, stt, tts } = assistant.fallback_providers;
  return {
    fallback_providers: {
      llm: llm.map((entry) => ({
        provider: entry.provider,
        config: {
          ...entry.config,
          base_url: entry.config.base_url,
          deployment: entry.config.deployment,
          api_version: entry.config.api_version,
        } as Record<string, unknown>,
      })),
      stt: stt.map((entry) => ({ provider: entry.provider, config: { ...entry.config } as Record<string, unknown> })),
      tts: tts.map((entry) => ({
        provider: entry.provider,
        config: {
          ...entry.config,
          language: entry.config.language,
          encoding: entry.config.encoding,
          emotion: entry.config.emotion,
        } as Record<string, unknown>,
      })),
    },
    fault_policy: { ...assistant.fault_policy },
  };
}

/** Milliseconds as the seconds an input shows ("" while empty). */
export function secondsText(ms: unknown): string {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  return String(Math.round(ms) / 1000);
}

/** What was typed in seconds as milliseconds ("" while empty, so the schema reports it missing). */
export function msOfSeconds(text: string): number | "" {
  if (text.trim() === "") return "";
  const seconds = Number(text);
  return Number.isFinite(seconds) ? Math.round(seconds * 1000) : "";
}
