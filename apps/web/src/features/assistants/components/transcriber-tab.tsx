import Alert from "@mui/material/Alert";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { ASSISTANT_DEFAULTS, STT_CATALOG, STT_PROVIDERS, type SttProviderId } from "@parley/contract";
import { useMemo } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { useAutoSelect } from "../../../lib/use-auto-select.ts";
import { useTranscriber } from "../api/catalog-api.ts";
import type { OptionItem } from "../utils/options.ts";
import { sttProviderChange } from "../utils/provider-change.ts";
import { type SttFieldView, sttFields } from "../utils/stt-fields.ts";
import type { EditorForm } from "./editor-types.ts";
import { FormChips, FormNumberField, FormSwitch, ProviderSelect } from "./form-controls.tsx";
import { OptionPicker } from "./model-select.tsx";

/** The speech-to-text provider, its model and the provider's own settings (spec §3). */
export function TranscriberTab({ form }: { form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const provider = (useWatch({ control, name: "stt_provider" }) ?? ASSISTANT_DEFAULTS.stt_provider) as SttProviderId;
  const model = useWatch({ control, name: "stt_provider_config.model" });
  const transcriber = useTranscriber(provider);
  const catalog = STT_CATALOG[provider];
  const options = useMemo<OptionItem[] | undefined>(() => {
    const list = transcriber.data?.models ?? (transcriber.isError ? catalog.models : undefined);
    return list?.map((m) => ({ value: m.value, label: m.label ?? m.value }));
  }, [transcriber.data, transcriber.isError, catalog]);
  useAutoSelect(
    options,
    typeof model === "string" ? model : undefined,
    (value) => form.setValue("stt_provider_config.model", value, { shouldDirty: true }),
    { keepUnlisted: true },
  );
  const fields = useMemo(
    () => sttFields(provider, transcriber.data?.fields ?? catalog.fields),
    [provider, transcriber.data, catalog],
  );
  const languages = transcriber.data?.languages ?? catalog.languages;

  const changeProvider = (next: SttProviderId) => {
    const change = sttProviderChange(next);
    form.setValue("stt_provider", change.stt_provider, { shouldDirty: true });
    form.setValue("stt_provider_config", change.stt_provider_config, { shouldDirty: true, shouldValidate: true });
  };

  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <ProviderSelect
          control={control}
          name="stt_provider"
          label={t("transcriber.provider")}
          options={STT_PROVIDERS.map((p) => ({ value: p, label: STT_CATALOG[p].label }))}
          onSelect={changeProvider}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <OptionPicker
          control={control}
          name="stt_provider_config.model"
          label={t("transcriber.model")}
          options={options ?? []}
          loading={transcriber.isPending}
        />
      </Grid>
      {provider === "local" && (
        <Grid size={12}>
          <Alert severity="info">{t("transcriber.localNote")}</Alert>
        </Grid>
      )}
      {fields.map((field) => (
        <Grid key={`${provider}.${field.key}`} size={field.kind === "boolean" ? { xs: 12, sm: 6 } : 12}>
          <SttField form={form} field={field} languages={field.key === "language" ? languages : undefined} />
        </Grid>
      ))}
    </Grid>
  );
}

function SttField(props: { form: EditorForm; field: SttFieldView; languages?: { value: string; label: string }[] }) {
  const { t } = useTranslation("assistants");
  const { field } = props;
  const control = props.form.control;
  const name = `stt_provider_config.${field.key}` as const;
  const label = t(`transcriber.fields.${field.key}`, { defaultValue: field.label ?? field.key });
  const help = t(`transcriber.help.${field.key}`, { defaultValue: field.help ?? "" }) || undefined;
  const options = field.options ?? (props.languages && props.languages.length > 0 ? props.languages : undefined);
  switch (field.kind) {
    case "boolean":
      return <FormSwitch control={control} name={name} label={label} helperText={help} />;
    case "number":
      return (
        <FormNumberField
          control={control}
          name={name}
          label={label}
          helperText={help}
          fullWidth
          slotProps={{ htmlInput: { min: field.min, max: field.max, step: field.step } }}
        />
      );
    case "list":
      return <FormChips control={control} name={name} label={label} helperText={help ?? t("chipsHelp")} />;
    default:
      return options ? (
        <FormTextField control={control} name={name} select label={label} helperText={help} fullWidth>
          {options.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {o.label === o.value ? o.value : `${o.label} (${o.value})`}
            </MenuItem>
          ))}
        </FormTextField>
      ) : (
        <FormTextField control={control} name={name} label={label} helperText={help} fullWidth />
      );
  }
}
