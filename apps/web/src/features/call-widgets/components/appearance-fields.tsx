import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import { WidgetPosition, WidgetTheme } from "@parley/contract";
import type { Control } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { type FieldSpec, HALF } from "../../../components/form-fields/field-spec.ts";
import { FormFields } from "../../../components/form-fields/form-fields.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { optionsOf } from "../../../components/menu-options.tsx";
import { LANGUAGES } from "../../../i18n/languages.ts";
import type { WidgetEditorInput, WidgetEditorOutput } from "../forms/widget-form.ts";
import { ColorField } from "./color-field.tsx";

type FormControl = Control<WidgetEditorInput, unknown, WidgetEditorOutput>;

const THIRD = { xs: 12, sm: 4 };
const LABELS = ["button_label", "panel_title", "start_label", "end_label"] as const;

/** Colours, place, theme, language and the four texts of the widget. */
export function AppearanceFields({ control, customBackground }: { control: FormControl; customBackground: boolean }) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const color = (name: "appearance.primary_color" | "background_color", label: string, disabled?: boolean) => (
    <ColorField
      control={control}
      name={name}
      label={label}
      pickLabel={t("pickColor", { name: label })}
      disabled={disabled}
    />
  );
  const fields: FieldSpec<WidgetEditorInput>[] = [
    {
      kind: "node",
      key: "primary_color",
      grid: HALF,
      node: color("appearance.primary_color", t("fields.primaryColor")),
    },
    {
      kind: "group",
      key: "background",
      grid: HALF,
      fields: [
        {
          kind: "node",
          key: "background_color",
          node: color("background_color", t("fields.backgroundColor"), !customBackground),
        },
        { kind: "switch", name: "custom_background", label: t("fields.customBackground") },
      ],
    },
    {
      kind: "select",
      name: "appearance.position",
      label: t("fields.position"),
      grid: THIRD,
      options: optionsOf(WidgetPosition.options, (value) => t(`positions.${value}`)),
    },
    {
      kind: "select",
      name: "appearance.theme",
      label: t("fields.theme"),
      grid: THIRD,
      options: optionsOf(WidgetTheme.options, (value) => t(`themes.${value}`)),
    },
    {
      kind: "node",
      key: "language",
      grid: THIRD,
      // Each language is named in itself, so its menu item says which language it is in.
      node: (
        <FormTextField control={control} name="appearance.language" label={t("fields.language")} select fullWidth>
          {LANGUAGES.map((language) => (
            <MenuItem key={language.code} value={language.code} lang={language.code}>
              {language.name}
            </MenuItem>
          ))}
        </FormTextField>
      ),
    },
    ...LABELS.map((name) => ({
      name: `appearance.${name}` as const,
      label: t(`fields.${name}`),
      required: true,
      grid: HALF,
    })),
  ];
  return (
    <Grid container spacing={2}>
      <FormFields control={control} fields={fields} />
    </Grid>
  );
}
