import Grid from "@mui/material/Grid";
import { ASSISTANT_DEFAULTS, AssistantFields, LLM_CATALOG, LLM_DEFAULT_CONFIG, providerLabel } from "@parley/contract";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { numberBounds, numberRange } from "../../../lib/number-bounds.ts";
import { useDebouncedValue } from "../../../lib/use-debounced-value.ts";
import { useLlmModels } from "../api/catalog-api.ts";
import { llmNeedsDeployment } from "../utils/provider-traits.ts";
import type { EditorForm } from "./editor-types.ts";
import { EndOfTurnFields } from "./end-of-turn-fields.tsx";
import { providerAndModelFields, useModelOptions } from "./provider-fields.tsx";
import { HALF, SettingsFields, THIRD } from "./settings-fields.tsx";

/** Name, greeting, prompt and the language model with its settings. */
export function ModelTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const provider = useWatch({ control, name: "llm_provider" }) ?? ASSISTANT_DEFAULTS.llm_provider;
  const typedBaseUrl = useWatch({ control, name: "llm_provider_config.base_url" });
  // Each URL typed is a request to that server: ask once the typing has paused.
  const baseUrl = useDebouncedValue(typeof typedBaseUrl === "string" ? typedBaseUrl : undefined, 600);
  const models = useLlmModels(provider, baseUrl);
  const options = useModelOptions("llm", form, models, LLM_CATALOG[provider].models);
  const info = LLM_CATALOG[provider];
  // A server that could not be asked for its models says why under its URL.
  let baseUrlHelp = t("model.baseUrlHelp", { example: LLM_DEFAULT_CONFIG[provider].base_url ?? "" });
  const deployment = llmNeedsDeployment(provider);
  if (deployment) baseUrlHelp = t("model.resourceBaseUrlHelp", { provider: providerLabel(provider) });
  if (models.data?.error) baseUrlHelp = t("model.serverModelsFailed", { error: models.data.error });

  return (
    <Grid container spacing={2}>
      <SettingsFields
        control={control}
        fields={[
          { kind: "text", name: "name", label: t("model.name"), required: true },
          {
            kind: "select",
            name: "first_speaker",
            label: t("model.firstSpeaker"),
            size: THIRD,
            options: [
              { value: "assistant", label: t("model.speakers.assistant") },
              { value: "user", label: t("model.speakers.user") },
            ],
          },
          {
            kind: "text",
            name: "first_message",
            label: t("model.firstMessage"),
            help: t("model.firstMessageHelp"),
            size: { xs: 12, sm: 8 },
          },
          { kind: "text", name: "system_prompt", label: t("model.systemPrompt"), rows: { min: 6, max: 20 } },
          ...providerAndModelFields("llm", {
            form,
            t,
            options,
            loading: models.isPending,
          }),
          info.needsBaseUrl && {
            kind: "text",
            name: "llm_provider_config.base_url",
            label: t("model.baseUrl"),
            help: baseUrlHelp,
            required: true,
          },
          deployment && {
            kind: "text",
            name: "llm_provider_config.deployment",
            label: t("model.deployment"),
            size: HALF,
            required: true,
          },
          deployment && {
            kind: "text",
            name: "llm_provider_config.api_version",
            label: t("model.apiVersion"),
            size: HALF,
          },
          {
            kind: "slider",
            name: "llm_temperature",
            label: t("model.temperature"),
            size: HALF,
            ...numberRange(AssistantFields.shape.llm_temperature),
            step: 0.1,
            format: (v) => v.toFixed(1),
          },
          {
            kind: "number",
            name: "llm_max_tokens",
            label: t("model.maxTokens"),
            help: t("model.maxTokensHelp"),
            size: HALF,
            input: numberBounds(AssistantFields.shape.llm_max_tokens),
          },
          { kind: "text", name: "language", label: t("model.language"), help: t("model.languageHelp"), size: HALF },
          {
            kind: "select",
            name: "interruption_sensitivity",
            label: t("model.interruption"),
            help: t("model.interruptionHelp"),
            size: HALF,
            options: (["low", "medium", "high"] as const).map((level) => ({
              value: level,
              label: t(`model.sensitivity.${level}`),
            })),
          },
          { kind: "custom", key: "end-of-turn", node: <EndOfTurnFields control={control} /> },
        ]}
      />
    </Grid>
  );
}
