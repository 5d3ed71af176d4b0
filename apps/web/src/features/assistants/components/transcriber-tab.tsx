import Alert from "@mui/material/Alert";
import Grid from "@mui/material/Grid";
import { ASSISTANT_DEFAULTS, STT_CATALOG, type SttProviderId } from "@parley/contract";
import type { TFunction } from "i18next";
import { useMemo } from "react";
import { useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useTranscriber } from "../api/catalog-api.ts";
import { configField, mainPaths, type StagePaths } from "../utils/stage-paths.ts";
import { type SttFieldView, sttFields } from "../utils/stt-fields.ts";
import type { EditorForm } from "./editor-types.ts";
import { providerAndModelFields, useModelOptions } from "./provider-fields.tsx";
import { HALF, type SettingsField, SettingsFields } from "./settings-fields.tsx";

/**
 * The speech-to-text provider, its model and the provider's own settings (spec §3): the
 * assistant's own transcriber, or with `at` one of its backups.
 */
export function TranscriberTab({ form, at = mainPaths("stt") }: { form: EditorForm; at?: StagePaths }) {
  const { t } = useTranslation("assistants");
  const { control } = form;
  const watched = useWatch({ control, name: at.provider });
  const provider = (
    typeof watched === "string" && watched in STT_CATALOG ? watched : ASSISTANT_DEFAULTS.stt_provider
  ) as SttProviderId;
  const transcriber = useTranscriber(provider);
  const catalog = STT_CATALOG[provider];
  const options = useModelOptions("stt", form, transcriber, catalog.models, { validate: false, at });
  const fields = useMemo(
    () => sttFields(provider, transcriber.data?.fields ?? catalog.fields),
    [provider, transcriber.data, catalog],
  );
  const languages = transcriber.data?.languages ?? catalog.languages;

  return (
    <Grid container spacing={2}>
      <SettingsFields
        control={control}
        fields={providerAndModelFields("stt", {
          form,
          t,
          options,
          loading: transcriber.isPending,
          at,
        })}
      />
      {provider === "local" && (
        <Grid size={12}>
          <Alert severity="info">{t("transcriber.localNote")}</Alert>
        </Grid>
      )}
      <SettingsFields
        control={control}
        fields={fields.map((field) =>
          sttSetting(field, provider, at, field.key === "language" ? languages : undefined, t),
        )}
      />
    </Grid>
  );
}

/** One of the provider's own settings as an editor field: its words from the locale where it has them. */
function sttSetting(
  field: SttFieldView,
  provider: SttProviderId,
  at: StagePaths,
  languages: { value: string; label: string }[] | undefined,
  t: TFunction<"assistants">,
): SettingsField {
  const common = {
    key: `${provider}.${field.key}`,
    name: configField(at, field.key),
    label: t(`transcriber.fields.${field.key}`, { defaultValue: field.label ?? field.key }),
    help: t(`transcriber.help.${field.key}`, { defaultValue: field.help ?? "" }) || undefined,
  };
  const options = field.options ?? (languages && languages.length > 0 ? languages : undefined);
  switch (field.kind) {
    case "boolean":
      return { kind: "switch", ...common, size: HALF };
    case "number":
      return { kind: "number", ...common, input: { min: field.min, max: field.max, step: field.step } };
    case "list":
      return { kind: "chips", ...common, help: common.help ?? t("chipsHelp") };
    default:
      if (!options) return { kind: "text", ...common };
      return {
        kind: "select",
        ...common,
        options: options.map((o) => ({
          value: o.value,
          label: o.label === o.value ? o.value : `${o.label} (${o.value})`,
        })),
      };
  }
}
