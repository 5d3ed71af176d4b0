import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import { useMemo } from "react";
import { type Control, Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { BatchFormValues } from "../forms/batch-call-form.ts";
import { timeZones } from "../forms/zoned-time.ts";

/** The campaign's time zone, searchable among the browser's zones. */
export function TimezoneField({ control }: { control: Control<BatchFormValues> }) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const zones = useMemo(timeZones, []);
  return (
    <Controller
      control={control}
      name="timezone"
      render={({ field, fieldState }) => (
        <Autocomplete
          options={zones}
          value={field.value}
          disableClearable
          onChange={(_e, zone) => field.onChange(zone)}
          renderInput={(params) => (
            <TextField
              {...params}
              label={t("fields.timezone")}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message ?? t("form.timezoneHelp")}
            />
          )}
        />
      )}
    />
  );
}
