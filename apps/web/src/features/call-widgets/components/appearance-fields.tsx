import FormControlLabel from "@mui/material/FormControlLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Switch from "@mui/material/Switch";
import { WidgetPosition, WidgetTheme } from "@parley/contract";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { LANGUAGES } from "../../../i18n/languages.ts";
import type { WidgetEditorInput, WidgetEditorOutput } from "../forms/widget-form.ts";
import { ColorField } from "./color-field.tsx";

type FormControl = Control<WidgetEditorInput, unknown, WidgetEditorOutput>;

const LABELS = ["button_label", "panel_title", "start_label", "end_label"] as const;

/** Colours, place, theme, language and the four texts of the widget. */
export function AppearanceFields({ control, customBackground }: { control: FormControl; customBackground: boolean }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <ColorField
          control={control}
          name="appearance.primary_color"
          label={t("fields.primaryColor")}
          pickLabel={t("pickColor", { name: t("fields.primaryColor") })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <ColorField
          control={control}
          name="background_color"
          label={t("fields.backgroundColor")}
          pickLabel={t("pickColor", { name: t("fields.backgroundColor") })}
          disabled={!customBackground}
        />
        <Controller
          control={control}
          name="custom_background"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} onChange={(_, checked) => field.onChange(checked)} />}
              label={t("fields.customBackground")}
            />
          )}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField control={control} name="appearance.position" label={t("fields.position")} select fullWidth>
          {WidgetPosition.options.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`positions.${value}`)}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField control={control} name="appearance.theme" label={t("fields.theme")} select fullWidth>
          {WidgetTheme.options.map((value) => (
            <MenuItem key={value} value={value}>
              {t(`themes.${value}`)}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField control={control} name="appearance.language" label={t("fields.language")} select fullWidth>
          {LANGUAGES.map((language) => (
            <MenuItem key={language.code} value={language.code} lang={language.code}>
              {language.name}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      {LABELS.map((name) => (
        <Grid key={name} size={{ xs: 12, sm: 6 }}>
          <FormTextField control={control} name={`appearance.${name}`} label={t(`fields.${name}`)} required fullWidth />
        </Grid>
      ))}
    </Grid>
  );
}
