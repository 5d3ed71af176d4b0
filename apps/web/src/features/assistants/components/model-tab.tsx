import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import { AssistantFields } from "@parley/contract";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { numberBounds, numberRange } from "../../../lib/number-bounds.ts";
import type { EditorForm } from "./editor-types.ts";
import { EndOfTurnFields } from "./end-of-turn-fields.tsx";
import { EngineModeChoice } from "./engine-mode-choice.tsx";
import { useLlmProviderFields } from "./llm-provider-fields.tsx";
import { RealtimeFields } from "./realtime-fields.tsx";
import { HALF, SettingsFields, THIRD } from "./settings-fields.tsx";

/**
 * Name, greeting, prompt, the engine (pipeline or realtime) and the models: the speech-to-speech
 * model in realtime mode, and the pipeline's language model (in realtime mode its fallback).
 */
export function ModelTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const llmFields = useLlmProviderFields(form);
  const realtime = useWatch({ control, name: "engine_mode" }) === "realtime";

  return (
    <Grid container spacing={2}>
      <SettingsFields
        control={control}
        fields={[
          { kind: "custom", key: "engine-mode", node: <EngineModeChoice control={control} /> },
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
        ]}
      />
      {realtime && <RealtimeFields form={form} />}
      <SettingsFields
        control={control}
        fields={[
          realtime && {
            kind: "custom",
            key: "pipeline-fallback",
            node: (
              <Typography variant="subtitle2" component="h3">
                {t("realtime.pipelineModel")}
                <Typography variant="body2" color="text.secondary" component="span" sx={{ display: "block" }}>
                  {t("realtime.pipelineModelHelp")}
                </Typography>
              </Typography>
            ),
          },
          ...llmFields,
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
