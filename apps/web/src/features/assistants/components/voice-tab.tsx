import Alert from "@mui/material/Alert";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Typography from "@mui/material/Typography";
import {
  ASSISTANT_DEFAULTS,
  providerLabel,
  type SettingFieldSpec,
  TTS_CATALOG,
  TTS_PROVIDERS,
  TtsProviderConfig,
  type TtsProviderId,
} from "@parley/contract";
import { useMemo } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useClones } from "../../../api/clones.ts";
import { useIntegrations, voiceKeyMissing } from "../../../api/integrations.ts";
import { useVoices } from "../../../api/voices.ts";
import { errorText } from "../../../components/error-text.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { VoicePreviewButton } from "../../../components/voice-preview/voice-preview-button.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { numberRange } from "../../../lib/number-bounds.ts";
import { useAutoSelect } from "../../../lib/use-auto-select.ts";
import { mergeClones, type OptionItem } from "../utils/options.ts";
import { ttsProviderChange } from "../utils/provider-change.ts";
import { ttsSettingFields } from "../utils/provider-traits.ts";
import type { EditorForm } from "./editor-types.ts";
import { FormSlider, FormSwitch, ProviderSelect } from "./form-controls.tsx";
import { OptionPicker } from "./model-select.tsx";

const SAMPLE_RATES = [8000, 16000, 22050, 24000, 44100, 48000];

/** The text-to-speech provider, model, voice and delivery settings. */
export function VoiceTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const provider = (useWatch({ control, name: "tts_provider" }) ?? ASSISTANT_DEFAULTS.tts_provider) as TtsProviderId;
  const model = useWatch({ control, name: "tts_provider_config.model" });
  const voice = useWatch({ control, name: "tts_provider_config.voice" });
  const speed = useWatch({ control, name: "tts_provider_config.speed" });
  const language = useWatch({ control, name: "tts_provider_config.language" });
  const settings = useWatch({ control, name: "tts_provider_config.settings" });
  const { workspace } = useAuth();
  const voices = useVoices(provider);
  const clones = useClones();
  const keyMissing = voiceKeyMissing(useIntegrations().data, provider) === true;
  const catalog = TTS_CATALOG[provider];

  const modelOptions = useMemo<OptionItem[] | undefined>(() => {
    const list = voices.data?.models ?? (voices.isError ? catalog.models : undefined);
    return list?.map((m) => ({ value: m.value, label: m.label ?? m.value }));
  }, [voices.data, voices.isError, catalog]);
  const voiceOptions = useMemo<OptionItem[] | undefined>(() => {
    const base =
      voices.data?.voices ?? (voices.isError ? catalog.voices.map((v) => ({ ...v, isCustom: false })) : null);
    if (!base || clones.isPending) return undefined;
    return mergeClones(provider, base, clones.data ?? []).map((v) => ({
      value: v.id,
      label: v.isCustom ? t("voice.customVoice", { name: v.name }) : v.name,
    }));
  }, [voices.data, voices.isError, clones.isPending, clones.data, catalog, provider, t]);
  const set = (name: "tts_provider_config.model" | "tts_provider_config.voice") => (value: string) =>
    form.setValue(name, value, { shouldDirty: true, shouldValidate: true });
  useAutoSelect(modelOptions, model, set("tts_provider_config.model"), { keepUnlisted: true });
  useAutoSelect(voiceOptions, voice, set("tts_provider_config.voice"), { keepUnlisted: true });

  const changeProvider = (next: TtsProviderId) => {
    const change = ttsProviderChange(next);
    form.setValue("tts_provider", change.tts_provider, { shouldDirty: true });
    form.setValue("tts_provider_config", change.tts_provider_config, { shouldDirty: true, shouldValidate: true });
  };

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <ProviderSelect
          control={control}
          name="tts_provider"
          label={t("voice.provider")}
          options={TTS_PROVIDERS.map((p) => ({ value: p, label: TTS_CATALOG[p].label }))}
          onSelect={changeProvider}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <OptionPicker
          control={control}
          name="tts_provider_config.model"
          label={t("voice.model")}
          options={modelOptions ?? []}
          loading={voices.isPending}
        />
      </Grid>
      <Grid size={12}>
        <OptionPicker
          control={control}
          name="tts_provider_config.voice"
          label={t("voice.voice")}
          options={voiceOptions ?? []}
          loading={voices.isPending}
        />
      </Grid>
      <Grid size={12}>
        {/* Previews what is in the form now, saved or not, so a voice can be tried before saving. */}
        <VoicePreviewButton
          workspaceId={workspace?.id}
          missingKey={keyMissing ? providerLabel(provider) : undefined}
          request={{
            provider,
            model: model ?? "",
            voice: voice ?? "",
            speed: typeof speed === "number" ? speed : undefined,
            language: typeof language === "string" && language ? language : undefined,
            settings: settings ?? undefined,
          }}
        />
      </Grid>
      {voices.isError && (
        <Grid size={12}>
          <Alert severity="warning">{errorText(voices.error, t("voice.loadFailed"))}</Alert>
        </Grid>
      )}
      {voices.data?.error && (
        <Grid size={12}>
          <Alert severity="info">{t("voice.builtinList", { error: voices.data.error })}</Alert>
        </Grid>
      )}
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormSlider
          control={control}
          name="tts_provider_config.speed"
          label={t("voice.speed")}
          {...numberRange(TtsProviderConfig.shape.speed)}
          step={0.05}
          format={(v) => `${v.toFixed(2)}×`}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField control={control} name="tts_provider_config.language" label={t("voice.language")} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField
          control={control}
          name="tts_provider_config.sampleRate"
          select
          label={t("voice.sampleRate")}
          fullWidth
        >
          {SAMPLE_RATES.map((rate) => (
            <MenuItem key={rate} value={rate}>
              {t("voice.hertz", { rate })}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField
          control={control}
          name="tts_provider_config.encoding"
          select
          label={t("voice.encoding")}
          fullWidth
        >
          {catalog.encodings.map((encoding) => (
            <MenuItem key={encoding} value={encoding}>
              {encoding}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField
          control={control}
          name="tts_provider_config.emotion"
          label={t("voice.emotion")}
          helperText={t("voice.emotionHelp")}
          fullWidth
        />
      </Grid>
      <VoiceSettings form={form} provider={provider} />
    </Grid>
  );
}

/** The vendor's own voice settings, as its contract descriptor lists them (sliders and switches). */
function VoiceSettings({ form, provider }: { form: EditorForm; provider: TtsProviderId }) {
  const { t } = useTranslation("assistants");
  const fields = ttsSettingFields(provider);
  if (fields.length === 0) return null;
  const label = (field: SettingFieldSpec) => t(`voice.settings.${field.name}`, { defaultValue: field.label });
  return (
    <>
      <Grid size={12}>
        <Typography variant="subtitle1" component="h3" sx={{ mt: 1 }}>
          {t("voice.settings.title", { provider: providerLabel(provider) })}
        </Typography>
      </Grid>
      {fields.map((field) =>
        field.kind === "number" ? (
          <Grid key={field.name} size={{ xs: 12, sm: 4 }}>
            <FormSlider
              control={form.control}
              name={`tts_provider_config.settings.${field.name}`}
              label={label(field)}
              min={field.min ?? 0}
              max={field.max ?? 1}
              step={field.step ?? 0.05}
              format={(v) => v.toFixed(2)}
            />
          </Grid>
        ) : (
          <Grid key={field.name} size={12}>
            <FormSwitch
              control={form.control}
              name={`tts_provider_config.settings.${field.name}`}
              label={label(field)}
            />
          </Grid>
        ),
      )}
    </>
  );
}
