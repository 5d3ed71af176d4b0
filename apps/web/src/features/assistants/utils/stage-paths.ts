import type { FieldPath } from "react-hook-form";
import type { AssistantFormInput } from "./assistant-form.ts";

export type ProviderStage = "llm" | "stt" | "tts";

/**
 * Where a stage's provider and its config sit in the editor's form: the assistant's own
 * (`llm_provider`, `llm_provider_config`) or one of its backups (`fallback_providers.llm.0.provider`,
 * `….config`), so the same pickers edit both.
 */
export interface StagePaths {
  provider: FieldPath<AssistantFormInput>;
  config: FieldPath<AssistantFormInput>;
}

/** The assistant's own provider of a stage. */
export const mainPaths = (stage: ProviderStage): StagePaths => ({
  provider: `${stage}_provider`,
  config: `${stage}_provider_config`,
});

/** The backup at `index` of a stage. */
export const backupPaths = (stage: ProviderStage, index: number): StagePaths => ({
  provider: `fallback_providers.${stage}.${index}.provider`,
  config: `fallback_providers.${stage}.${index}.config`,
});

/**
 * A setting under the stage's config (`model`, `base_url`, `settings.stability`). Configs are
 * open records in a backup, so the path is built, not spelled out; the form has it either way.
 */
export const configField = (at: StagePaths, key: string) => `${at.config}.${key}` as FieldPath<AssistantFormInput>;
