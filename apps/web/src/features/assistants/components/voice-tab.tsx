import Alert from "@mui/material/Alert";
import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import {
  ASSISTANT_DEFAULTS,
  providerLabel,
  type SettingFieldSpec,
  TTS_CATALOG,
  TtsProviderConfig,
  type TtsProviderId,
} from "@parley/contract";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useClones } from "../../../api/clones.ts";
import { useIntegrations, voiceKeyMissing } from "../../../api/integrations.ts";
import { useVoices } from "../../../api/voices.ts";
import { errorText } from "../../../components/error-text.ts";
import { VoicePreviewButton } from "../../../components/voice-preview/voice-preview-button.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { numberRange } from "../../../lib/number-bounds.ts";
import type { OptionItem } from "../../../lib/provider-options.ts";
import { useAutoSelect } from "../../../lib/use-auto-select.ts";
import { mergeClones } from "../utils/options.ts";
import { ttsSettingFields } from "../utils/provider-traits.ts";
import { configField, mainPaths, type StagePaths } from "../utils/stage-paths.ts";
import type { EditorForm } from "./editor-types.ts";
import { OptionPicker } from "./model-select.tsx";
import { providerAndModelFields, setAt, useModelOptions } from "./provider-fields.tsx";
import { HALF, type SettingsField, SettingsFields, THIRD } from "./settings-fields.tsx";

const SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000];

/** What the voice preview needs of the config in the form (an open record in a backup). */
function voiceConfigOf(config: unknown) {
  const c = typeof config === "object" && config !== null ? (config as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === "string" ? value : "");
  const settings = typeof c.settings === "object" && c.settings !== null ? c.settings : undefined;
  return {
    model: text(c.model),
    voice: text(c.voice),
    speed: typeof c.speed === "number" ? c.speed : undefined,
    language: text(c.language) || undefined,
    settings: settings as Record<string, number | boolean | string> | undefined,
  };
}

/**
 * The text-to-speech provider, model, voice and delivery settings: the assistant's own voice, or
 * with `at` one of its backups.
 */
export function VoiceTab({ form, at = mainPaths("tts") }: { form: EditorForm; at?: StagePaths }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const watched = useWatch({ control, name: at.provider });
  const provider = (
    typeof watched === "string" && watched in TTS_CATALOG ? watched : ASSISTANT_DEFAULTS.tts_provider
  ) as TtsProviderId;
  const field = (key: string) => configField(at, key);
  const config = useWatch({ control, name: at.config });
  const { model, voice, speed, language, settings } = voiceConfigOf(config);
  const { workspace } = useAuth();
  const voices = useVoices(provider);
  const clones = useClones();
  const keyMissing = voiceKeyMissing(useIntegrations().data, provider) === true;
  const catalog = TTS_CATALOG[provider];

  const modelOptions = useModelOptions("tts", form, voices, catalog.models, { at });
  const voiceOptions = useMemo<OptionItem[] | undefined>(() => {
    const base =
      voices.data?.voices ?? (voices.isError ? catalog.voices.map((v) => ({ ...v, isCustom: false })) : null);
    if (!base || clones.isPending) return undefined;
    return mergeClones(provider, base, clones.data ?? []).map((v) => ({
      value: v.id,
      label: v.isCustom ? t("voice.customVoice", { name: v.name }) : v.name,
    }));
  }, [voices.data, voices.isError, clones.isPending, clones.data, catalog, provider, t]);
  useAutoSelect(voiceOptions, voice, (value) => setAt(form, field("voice"), value), { keepUnlisted: true });

  return (
    <Grid container spacing={2}>
      <SettingsFields
        control={control}
        fields={[
          ...providerAndModelFields("tts", {
            form,
            t,
            options: modelOptions,
            loading: voices.isPending,
            at,
          }),
          {
            kind: "custom",
            key: field("voice"),
            node: (
              <OptionPicker
                control={control}
                name={field("voice")}
                label={t("voice.voice")}
                options={voiceOptions ?? []}
                loading={voices.isPending}
              />
            ),
          },
          {
            kind: "custom",
            key: "preview",
            // Previews what is in the form now, saved or not, so a voice can be tried before saving.
            node: (
              <VoicePreviewButton
                workspaceId={workspace?.id}
                missingKey={keyMissing ? providerLabel(provider) : undefined}
                request={{
                  provider,
                  model,
                  voice,
                  speed,
                  language,
                  settings,
                }}
              />
            ),
          },
          voices.isError && {
            kind: "custom",
            key: "load-failed",
            node: <Alert severity="warning">{errorText(voices.error, t("voice.loadFailed"))}</Alert>,
          },
          voices.data?.error
            ? {
                kind: "custom",
                key: "builtin-list",
                node: <Alert severity="info">{t("voice.builtinList", { error: voices.data.error })}</Alert>,
              }
            : null,
          {
            kind: "slider",
            name: field("speed"),
            label: t("voice.speed"),
            size: HALF,
            ...numberRange(TtsProviderConfig.shape.speed),
            step: 0.05,
            format: (v) => `${v.toFixed(2)}×`,
          },
          { kind: "text", name: field("language"), label: t("voice.language"), size: HALF },
          {
            kind: "select",
            name: field("sampleRate"),
            label: t("voice.sampleRate"),
            size: THIRD,
            options: SAMPLE_RATES.map((rate) => ({ value: rate, label: t("voice.hertz", { rate }) })),
          },
          {
            kind: "select",
            name: field("encoding"),
            label: t("voice.encoding"),
            size: THIRD,
            options: catalog.encodings.map((encoding) => ({ value: encoding, label: encoding })),
          },
          {
            kind: "text",
            name: field("emotion"),
            label: t("voice.emotion"),
            help: t("voice.emotionHelp"),
            size: THIRD,
          },
          ...voiceSettingFields(provider, at, t),
        ]}
      />
    </Grid>
  );
}

/** The vendor's own voice settings, as its contract descriptor lists them (sliders and switches). */
function voiceSettingFields(provider: TtsProviderId, at: StagePaths, t: TFunction<"assistants">): SettingsField[] {
  const fields = ttsSettingFields(provider);
  if (fields.length === 0) return [];
  const label = (field: SettingFieldSpec) => t(`voice.settings.${field.name}`, { defaultValue: field.label });
  const title: SettingsField = {
    kind: "custom",
    key: "voice-settings-title",
    node: (
      <Typography variant="subtitle1" component="h3" sx={{ mt: 1 }}>
        {t("voice.settings.title", { provider: providerLabel(provider) })}
      </Typography>
    ),
  };
  return [
    title,
    ...fields.map((field): SettingsField => {
      const name = configField(at, `settings.${field.name}`);
      if (field.kind !== "number") return { kind: "switch", name, label: label(field) };
      const range = { min: field.min ?? 0, max: field.max ?? 1, step: field.step ?? 0.05 };
      return { kind: "slider", name, label: label(field), size: THIRD, ...range, format: (v) => v.toFixed(2) };
    }),
  ];
}
