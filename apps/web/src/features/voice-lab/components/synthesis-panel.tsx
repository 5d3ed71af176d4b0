import PlayArrowIcon from "@mui/icons-material/PlayArrow";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Slider from "@mui/material/Slider";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { TTS_CATALOG, TTS_PROVIDERS, type TtsProviderId, type VoicesResponse } from "@parley/contract";
import type { UseQueryResult } from "@tanstack/react-query";
import { useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useIntegrations, voiceKeyMissing } from "../../../api/integrations.ts";
import { useVoices } from "../../../api/voices.ts";
import { errorText } from "../../../components/error-text.ts";
import { VoicePreviewButton } from "../../../components/voice-preview/voice-preview-button.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { useAutoSelect } from "../../../lib/use-auto-select.ts";
import { hasAccountVoices, type OptionItem, providerOptions } from "../utils/options.ts";
import {
  previewRequest,
  SPEED_MAX,
  SPEED_MIN,
  type SynthesisSettings,
  TEXT_MAX,
  withProvider,
} from "../utils/synthesis-settings.ts";

type Update = (change: (settings: SynthesisSettings) => SynthesisSettings) => void;

/** Listen to any voice of any provider with a text and speed of your own, before giving it to an assistant. */
export function SynthesisPanel({ settings, onChange }: { settings: SynthesisSettings; onChange: Update }) {
  const { t } = useTranslation("voice-lab");
  const { workspace } = useAuth();
  const { provider } = settings;
  const voices = useVoices(provider);
  // Nothing to auto-select while the provider's list loads; a failed request falls back to the catalog.
  const options = useMemo(
    () => (voices.isPending ? undefined : providerOptions(provider, voices.data)),
    [voices.isPending, voices.data, provider],
  );
  const set = (key: "model" | "voice") => (value: string) => onChange((s) => ({ ...s, [key]: value }));
  useAutoSelect(options?.models, settings.model, set("model"));
  useAutoSelect(options?.voices, settings.voice, set("voice"));
  const request = useMemo(() => previewRequest(settings), [settings]);
  const providerLabel = (p: TtsProviderId) => (p === "local" ? t("localProvider") : TTS_CATALOG[p].label);
  const keyMissing = voiceKeyMissing(useIntegrations().data, provider) === true;

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }} component="section" aria-labelledby="synthesis-title">
      <Typography variant="h6" component="h2" id="synthesis-title">
        {t("synthesis.title")}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t("synthesis.subtitle")}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            select
            fullWidth
            label={t("synthesis.provider")}
            value={provider}
            onChange={(e) => onChange((s) => withProvider(s, e.target.value as TtsProviderId))}
          >
            {TTS_PROVIDERS.map((p) => (
              <MenuItem key={p} value={p}>
                {providerLabel(p)}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <OptionSelect
            label={t("synthesis.model")}
            options={options?.models}
            value={settings.model}
            onSelect={set("model")}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <OptionSelect
            label={t("synthesis.voice")}
            options={options?.voices}
            value={settings.voice}
            onSelect={set("voice")}
            labelOf={(o) => (o.isCustom ? t("synthesis.cloneLabel", { name: o.label }) : o.label)}
          />
        </Grid>
        <ListNotes provider={provider} voices={voices} keyMissing={keyMissing} />
        <Grid size={12}>
          <SpeedSlider value={settings.speed} onChange={(speed) => onChange((s) => ({ ...s, speed }))} />
        </Grid>
        <Grid size={12}>
          <TextField
            fullWidth
            multiline
            minRows={3}
            label={t("synthesis.text")}
            value={settings.text}
            onChange={(e) => onChange((s) => ({ ...s, text: e.target.value.slice(0, TEXT_MAX) }))}
            helperText={t("synthesis.count", { count: settings.text.length, max: TEXT_MAX })}
            slotProps={{ htmlInput: { maxLength: TEXT_MAX } }}
          />
        </Grid>
        <Grid size={12}>
          {keyMissing ? (
            <MissingKey provider={provider} owner={workspace?.role === "owner"} />
          ) : (
            <VoicePreviewButton request={request} workspaceId={workspace?.id} label={t("synthesis.play")} />
          )}
        </Grid>
      </Grid>
    </Paper>
  );
}

/** A searchable pick list (live voice lists run to hundreds of entries). */
function OptionSelect(props: {
  label: string;
  options: OptionItem[] | undefined;
  value: string;
  onSelect: (value: string) => void;
  labelOf?: (option: OptionItem) => string;
}) {
  const { t } = useTranslation("voice-lab");
  const options = props.options ?? [];
  const selected = options.find((o) => o.value === props.value) ?? null;
  const labelOf = props.labelOf ?? ((o: OptionItem) => o.label);
  return (
    <Autocomplete
      options={options}
      value={selected}
      loading={!props.options}
      loadingText={t("synthesis.loadingOptions")}
      noOptionsText={t("synthesis.noOptions")}
      onChange={(_, option) => option && props.onSelect(option.value)}
      getOptionLabel={labelOf}
      getOptionKey={(o) => o.value}
      isOptionEqualToValue={(a, b) => a.value === b.value}
      renderInput={(params) => <TextField {...params} label={props.label} />}
    />
  );
}

/**
 * The play button when the provider's key is missing: disabled, with which key and where to add it
 * said before anyone presses it (the API would answer 409 with the same news).
 */
function MissingKey({ provider, owner }: { provider: TtsProviderId; owner: boolean }) {
  const { t } = useTranslation("voice-lab");
  const label = TTS_CATALOG[provider].label;
  return (
    <Alert
      severity="info"
      icon={false}
      action={
        <Button component={Link} to="/integrations" color="inherit" size="small">
          {t("synthesis.openIntegrations")}
        </Button>
      }
    >
      <Button
        variant="outlined"
        disabled
        startIcon={<PlayArrowIcon />}
        aria-describedby="voice-key-missing"
        sx={{ mb: 1 }}
      >
        {t("synthesis.play")}
      </Button>
      <Typography id="voice-key-missing" variant="body2">
        {t(owner ? "synthesis.keyMissing" : "synthesis.keyMissingMember", { provider: label })}
      </Typography>
    </Alert>
  );
}

/** Why the list may be short: it failed to load, or it is the built-in list (no key, or the vendor failed). */
function ListNotes(props: { provider: TtsProviderId; voices: UseQueryResult<VoicesResponse>; keyMissing: boolean }) {
  const { t } = useTranslation("voice-lab");
  const { provider, voices } = props;
  if (voices.isError)
    return (
      <Grid size={12}>
        <Alert severity="warning">{t("synthesis.loadFailed", { error: errorText(voices.error, "") })}</Alert>
      </Grid>
    );
  if (voices.data?.source !== "builtin" || !TTS_CATALOG[provider].needsKey) return null;
  // Without a key, the play button says what is missing; here only what it means for the list.
  if (props.keyMissing && !hasAccountVoices(provider)) return null;
  const label = TTS_CATALOG[provider].label;
  const note = voices.data.error
    ? t("synthesis.builtinAfterError", { error: voices.data.error })
    : hasAccountVoices(provider)
      ? t("synthesis.builtinNoKey", { provider: label })
      : t("synthesis.noKey", { provider: label });
  return (
    <Grid size={12}>
      <Alert severity="info">{note}</Alert>
    </Grid>
  );
}

function SpeedSlider({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  const { t } = useTranslation("voice-lab");
  const labelId = useId();
  const format = (v: number) => t("synthesis.speedValue", { value: v.toFixed(2) });
  return (
    <>
      <Typography id={labelId} gutterBottom>
        {t("synthesis.speed")}: {format(value)}
      </Typography>
      <Slider
        // Room at both ends for the first and last mark labels.
        sx={{ mx: 2, width: "calc(100% - 32px)" }}
        aria-labelledby={labelId}
        value={value}
        min={SPEED_MIN}
        max={SPEED_MAX}
        step={0.05}
        marks={[
          { value: SPEED_MIN, label: format(SPEED_MIN) },
          { value: 1, label: format(1) },
          { value: SPEED_MAX, label: format(SPEED_MAX) },
        ]}
        valueLabelDisplay="auto"
        getAriaValueText={format}
        valueLabelFormat={format}
        onChange={(_, v) => onChange(Array.isArray(v) ? (v[0] ?? 1) : v)}
      />
    </>
  );
}
