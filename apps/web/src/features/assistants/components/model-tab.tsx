import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import {
  ASSISTANT_DEFAULTS,
  AssistantFields,
  LLM_CATALOG,
  LLM_DEFAULT_CONFIG,
  LLM_PROVIDERS,
  type LlmProviderId,
  providerLabel,
} from "@parley/contract";
import { useMemo } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { numberBounds, numberRange } from "../../../lib/number-bounds.ts";
import { useAutoSelect } from "../../../lib/use-auto-select.ts";
import { useLlmModels } from "../api/catalog-api.ts";
import { useDebouncedValue } from "../hooks/use-debounced-value.ts";
import type { OptionItem } from "../utils/options.ts";
import { llmProviderChange } from "../utils/provider-change.ts";
import { llmNeedsDeployment } from "../utils/provider-traits.ts";
import type { EditorForm } from "./editor-types.ts";
import { EndOfTurnFields } from "./end-of-turn-fields.tsx";
import { FormNumberField, FormSlider, ProviderSelect } from "./form-controls.tsx";
import { OptionPicker } from "./model-select.tsx";

/** Name, greeting, prompt and the language model with its settings. */
export function ModelTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const provider = useWatch({ control, name: "llm_provider" }) ?? ASSISTANT_DEFAULTS.llm_provider;
  const model = useWatch({ control, name: "llm_provider_config.model" });
  const typedBaseUrl = useWatch({ control, name: "llm_provider_config.base_url" });
  // Each URL typed is a request to that server: ask once the typing has paused.
  const baseUrl = useDebouncedValue(typeof typedBaseUrl === "string" ? typedBaseUrl : undefined, 600);
  const models = useLlmModels(provider, baseUrl);
  const options = useMemo<OptionItem[] | undefined>(() => {
    const list = models.data?.models ?? (models.isError ? LLM_CATALOG[provider].models : undefined);
    return list?.map((m) => ({ value: m.value, label: m.label ?? m.value }));
  }, [models.data, models.isError, provider]);
  useAutoSelect(
    options,
    model,
    (value) => form.setValue("llm_provider_config.model", value, { shouldDirty: true, shouldValidate: true }),
    { keepUnlisted: true },
  );
  const info = LLM_CATALOG[provider];
  // A server that could not be asked for its models says why under its URL.
  let baseUrlHelp = t("model.baseUrlHelp", { example: LLM_DEFAULT_CONFIG[provider].base_url ?? "" });
  if (llmNeedsDeployment(provider)) baseUrlHelp = t("model.resourceBaseUrlHelp", { provider: providerLabel(provider) });
  if (models.data?.error) baseUrlHelp = t("model.serverModelsFailed", { error: models.data.error });

  const changeProvider = (next: LlmProviderId) => {
    const change = llmProviderChange(next);
    form.setValue("llm_provider", change.llm_provider, { shouldDirty: true });
    form.setValue("llm_provider_config", change.llm_provider_config, { shouldDirty: true, shouldValidate: true });
  };

  return (
    <Grid container spacing={2}>
      <Grid size={12}>
        <FormTextField control={control} name="name" label={t("model.name")} required fullWidth />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField control={control} name="first_speaker" select label={t("model.firstSpeaker")} fullWidth>
          <MenuItem value="assistant">{t("model.speakers.assistant")}</MenuItem>
          <MenuItem value="user">{t("model.speakers.user")}</MenuItem>
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 8 }}>
        <FormTextField
          control={control}
          name="first_message"
          label={t("model.firstMessage")}
          helperText={t("model.firstMessageHelp")}
          fullWidth
        />
      </Grid>
      <Grid size={12}>
        <FormTextField
          control={control}
          name="system_prompt"
          label={t("model.systemPrompt")}
          multiline
          minRows={6}
          maxRows={20}
          fullWidth
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <ProviderSelect
          control={control}
          name="llm_provider"
          label={t("model.provider")}
          options={LLM_PROVIDERS.map((p) => ({ value: p, label: LLM_CATALOG[p].label }))}
          onSelect={changeProvider}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <OptionPicker
          control={control}
          name="llm_provider_config.model"
          label={t("model.model")}
          options={options ?? []}
          loading={models.isPending}
        />
      </Grid>
      {info.needsBaseUrl && (
        <Grid size={12}>
          <FormTextField
            control={control}
            name="llm_provider_config.base_url"
            label={t("model.baseUrl")}
            helperText={baseUrlHelp}
            required
            fullWidth
          />
        </Grid>
      )}
      {llmNeedsDeployment(provider) && (
        <>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="llm_provider_config.deployment"
              label={t("model.deployment")}
              required
              fullWidth
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormTextField
              control={control}
              name="llm_provider_config.api_version"
              label={t("model.apiVersion")}
              fullWidth
            />
          </Grid>
        </>
      )}
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormSlider
          control={control}
          name="llm_temperature"
          label={t("model.temperature")}
          {...numberRange(AssistantFields.shape.llm_temperature)}
          step={0.1}
          format={(v) => v.toFixed(1)}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormNumberField
          control={control}
          name="llm_max_tokens"
          label={t("model.maxTokens")}
          helperText={t("model.maxTokensHelp")}
          fullWidth
          slotProps={{ htmlInput: numberBounds(AssistantFields.shape.llm_max_tokens) }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="language"
          label={t("model.language")}
          helperText={t("model.languageHelp")}
          fullWidth
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="interruption_sensitivity"
          select
          label={t("model.interruption")}
          helperText={t("model.interruptionHelp")}
          fullWidth
        >
          {(["low", "medium", "high"] as const).map((level) => (
            <MenuItem key={level} value={level}>
              {t(`model.sensitivity.${level}`)}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={12}>
        <EndOfTurnFields control={control} />
      </Grid>
    </Grid>
  );
}
