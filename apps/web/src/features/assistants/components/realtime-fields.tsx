import Grid from "@mui/material/Grid";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import {
  OpenAiRealtimeTurnDetection,
  REALTIME_DESCRIPTORS,
  type RealtimeProviderId,
  realtimeDefaultConfig,
  realtimeStage,
} from "@parley/contract";
import { useId } from "react";
import { type FieldPath, useController, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { menuItems } from "../../../components/menu-options.tsx";
import type { AssistantFormInput } from "../utils/assistant-form.ts";
import type { EditorControl, EditorForm } from "./editor-types.ts";
import { ProviderSelect } from "./form-controls.tsx";
import { HALF, SettingsFields } from "./settings-fields.tsx";

type Name = FieldPath<AssistantFormInput>;

/** A select whose empty choice stands for null (the vendor's default, or off). */
function NullableSelect(props: {
  control: EditorControl;
  name: Name;
  label: string;
  empty: string;
  options: readonly { value: string; label: string }[];
  help?: string;
}) {
  const { field } = useController({ control: props.control, name: props.name });
  return (
    <TextField
      select
      fullWidth
      label={props.label}
      name={field.name}
      inputRef={field.ref}
      value={typeof field.value === "string" ? field.value : ""}
      onChange={(e) => field.onChange(e.target.value === "" ? null : e.target.value)}
      onBlur={field.onBlur}
      helperText={props.help}
    >
      {menuItems([{ value: "", label: props.empty }, ...props.options])}
    </TextField>
  );
}

/** A text or number input whose empty value is null (detected language, the vendor's default timing). */
function NullableInput(props: { control: EditorControl; name: Name; label: string; help?: string; number?: boolean }) {
  const { field, fieldState } = useController({ control: props.control, name: props.name });
  const value = typeof field.value === "string" || typeof field.value === "number" ? field.value : "";
  return (
    <TextField
      fullWidth
      type={props.number ? "number" : "text"}
      label={props.label}
      name={field.name}
      inputRef={field.ref}
      value={value}
      onChange={(e) => {
        const raw = e.target.value.trim();
        field.onChange(raw === "" ? null : props.number ? Number(raw) : e.target.value);
      }}
      onBlur={field.onBlur}
      error={Boolean(fieldState.error)}
      helperText={fieldState.error?.message ?? props.help}
      slotProps={{ htmlInput: props.number ? { min: 0, step: 10 } : { dir: "auto" } }}
    />
  );
}

/** The speech-to-speech model of a realtime assistant: vendor, model, voice, turn detection, transcription. */
export function RealtimeFields({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const headingId = useId();
  const [provider, detection] = useWatch({ control, name: ["realtime.provider", "realtime.turn_detection"] });
  const stage = realtimeStage(provider ?? REALTIME_DESCRIPTORS[0].realtime.id);
  const providerOptions = REALTIME_DESCRIPTORS.map((d) => ({ value: d.realtime.id, label: d.realtime.label }));
  const modelOptions = stage.models.map((m) => ({ value: m.value, label: m.label ?? m.value }));
  const voiceOptions = stage.voices.map((v) => ({ value: v.id, label: v.name }));
  const selectProvider = (next: RealtimeProviderId) =>
    form.setValue("realtime", realtimeDefaultConfig(next), { shouldDirty: true, shouldValidate: true });
  const detectionType = detection && "type" in detection ? detection.type : null;
  const selectDetection = (type: "server_vad" | "semantic_vad") =>
    form.setValue("realtime.turn_detection", OpenAiRealtimeTurnDetection.parse({ type }), {
      shouldDirty: true,
      shouldValidate: true,
    });
  const sensitivities = (["high", "low"] as const).map((level) => ({
    value: level,
    label: t(`realtime.sensitivity.${level}`),
  }));

  return (
    <Grid size={12} container spacing={2} component="section" aria-labelledby={headingId}>
      <Grid size={12}>
        <Typography id={headingId} variant="subtitle2" component="h3">
          {t("realtime.title")}
        </Typography>
      </Grid>
      <Grid size={HALF}>
        <ProviderSelect
          control={control}
          name="realtime.provider"
          label={t("realtime.provider")}
          options={providerOptions}
          onSelect={selectProvider}
          helperText={t("realtime.providerHelp")}
        />
      </Grid>
      <SettingsFields
        control={control}
        fields={[
          {
            kind: "select",
            name: "realtime.model",
            key: `realtime-model-${provider}`,
            label: t("realtime.model"),
            size: HALF,
            options: modelOptions,
          },
          {
            kind: "select",
            name: "realtime.voice",
            key: `realtime-voice-${provider}`,
            label: t("realtime.voice"),
            help: t("realtime.voiceHelp"),
            size: HALF,
            options: voiceOptions,
          },
        ]}
      />
      {provider === "openai-realtime" && (
        <>
          <Grid size={HALF}>
            <TextField
              select
              fullWidth
              label={t("realtime.turnDetection")}
              value={detectionType ?? "semantic_vad"}
              onChange={(e) => selectDetection(e.target.value as "server_vad" | "semantic_vad")}
              helperText={t(`realtime.detection.${detectionType ?? "semantic_vad"}Help`)}
            >
              {menuItems([
                { value: "semantic_vad", label: t("realtime.detection.semantic_vad") },
                { value: "server_vad", label: t("realtime.detection.server_vad") },
              ])}
            </TextField>
          </Grid>
          <SettingsFields
            control={control}
            fields={[
              detectionType === "semantic_vad" && {
                kind: "select",
                name: "realtime.turn_detection.eagerness",
                label: t("realtime.eagerness"),
                help: t("realtime.eagernessHelp"),
                size: HALF,
                options: (["auto", "low", "medium", "high"] as const).map((level) => ({
                  value: level,
                  label: t(`realtime.eagernessLevels.${level}`),
                })),
              },
              detectionType === "server_vad" && {
                kind: "slider",
                name: "realtime.turn_detection.threshold",
                label: t("realtime.threshold"),
                size: HALF,
                min: 0,
                max: 1,
                step: 0.05,
                format: (v: number) => v.toFixed(2),
              },
              detectionType === "server_vad" && {
                kind: "number",
                name: "realtime.turn_detection.prefix_padding_ms",
                label: t("realtime.prefixPadding"),
                help: t("realtime.prefixPaddingHelp"),
                size: HALF,
                input: { min: 0, max: 2000, step: 50 },
              },
              detectionType === "server_vad" && {
                kind: "number",
                name: "realtime.turn_detection.silence_duration_ms",
                label: t("realtime.silence"),
                help: t("realtime.silenceHelp"),
                size: HALF,
                input: { min: 100, max: 5000, step: 50 },
              },
            ]}
          />
          <Grid size={HALF}>
            <NullableSelect
              control={control}
              name="realtime.transcription_model"
              label={t("realtime.transcription")}
              empty={t("realtime.noTranscription")}
              help={t("realtime.transcriptionHelp")}
              options={stage.transcriptionModels.map((m) => ({ value: m.value, label: m.label ?? m.value }))}
            />
          </Grid>
        </>
      )}
      {provider === "gemini-live" && (
        <>
          <Grid size={HALF}>
            <NullableSelect
              control={control}
              name="realtime.turn_detection.start_sensitivity"
              label={t("realtime.startSensitivity")}
              empty={t("realtime.vendorDefault")}
              options={sensitivities}
            />
          </Grid>
          <Grid size={HALF}>
            <NullableSelect
              control={control}
              name="realtime.turn_detection.end_sensitivity"
              label={t("realtime.endSensitivity")}
              empty={t("realtime.vendorDefault")}
              options={sensitivities}
            />
          </Grid>
          <Grid size={HALF}>
            <NullableInput
              control={control}
              name="realtime.turn_detection.prefix_padding_ms"
              label={t("realtime.prefixPadding")}
              help={t("realtime.vendorDefaultHelp")}
              number
            />
          </Grid>
          <Grid size={HALF}>
            <NullableInput
              control={control}
              name="realtime.turn_detection.silence_duration_ms"
              label={t("realtime.silence")}
              help={t("realtime.vendorDefaultHelp")}
              number
            />
          </Grid>
          <SettingsFields
            control={control}
            fields={[
              {
                kind: "switch",
                name: "realtime.input_transcription",
                label: t("realtime.inputTranscription"),
                help: t("realtime.transcriptionHelp"),
                size: HALF,
              },
            ]}
          />
        </>
      )}
      <Grid size={HALF}>
        <NullableInput
          control={control}
          name="realtime.language"
          label={t("realtime.language")}
          help={t(provider === "gemini-live" ? "realtime.languageHelpGemini" : "realtime.languageHelp")}
        />
      </Grid>
    </Grid>
  );
}
