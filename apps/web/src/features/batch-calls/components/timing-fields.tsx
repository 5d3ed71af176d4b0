import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormGroup from "@mui/material/FormGroup";
import FormHelperText from "@mui/material/FormHelperText";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import Switch from "@mui/material/Switch";
import { RETRYABLE_OUTCOMES } from "@parley/contract";
import { useId } from "react";
import { type Control, Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormTextField } from "../../../components/form-text-field.tsx";
import type { BatchFormValues } from "../forms/batch-call-form.ts";

const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** A weekday's short name in the interface language (ISO 1 = Monday). */
const dayName = (day: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, day)));

/** When contacts may be called: off (any time), or weekdays and hours in the recipient's or the campaign's zone. */
export function CallingHoursFields({ control }: { control: Control<BatchFormValues> }) {
  const { t, i18n } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const windowOn = useWatch({ control, name: "window_enabled" });
  const basisLabel = useId();
  return (
    <>
      <Grid size={12}>
        <Controller
          control={control}
          name="window_enabled"
          render={({ field }) => (
            <FormControlLabel
              control={<Switch checked={field.value} onChange={(_e, on) => field.onChange(on)} />}
              label={t("fields.windowEnabled")}
            />
          )}
        />
      </Grid>
      {windowOn && (
        <>
          <Grid size={12}>
            <Controller
              control={control}
              name="window_days"
              render={({ field }) => (
                <FormGroup row aria-label={t("fields.days")}>
                  {DAYS.map((day) => (
                    <FormControlLabel
                      key={day}
                      label={dayName(day, i18n.language)}
                      control={
                        <Checkbox
                          checked={field.value.includes(day)}
                          onChange={(_e, on) =>
                            field.onChange(on ? [...field.value, day] : field.value.filter((d) => d !== day))
                          }
                        />
                      }
                    />
                  ))}
                </FormGroup>
              )}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 3 }}>
            <FormTextField
              control={control}
              name="window_start"
              label={t("fields.windowStart")}
              type="time"
              fullWidth
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Grid>
          <Grid size={{ xs: 6, sm: 3 }}>
            <FormTextField
              control={control}
              name="window_end"
              label={t("fields.windowEnd")}
              type="time"
              fullWidth
              slotProps={{ inputLabel: { shrink: true } }}
            />
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <FormLabel id={basisLabel}>{t("fields.windowBasis")}</FormLabel>
            <Controller
              control={control}
              name="window_timezone"
              render={({ field }) => (
                <RadioGroup row aria-labelledby={basisLabel} {...field}>
                  <FormControlLabel value="recipient" control={<Radio />} label={t("form.basisRecipient")} />
                  <FormControlLabel value="campaign" control={<Radio />} label={t("form.basisCampaign")} />
                </RadioGroup>
              )}
            />
          </Grid>
        </>
      )}
    </>
  );
}

/** How often a contact is called, how long apart, and after which outcomes. */
export function RetryFields({ control }: { control: Control<BatchFormValues> }) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  return (
    <>
      <Grid size={{ xs: 6, sm: 3 }}>
        <FormTextField
          control={control}
          name="max_attempts"
          label={t("fields.maxAttempts")}
          type="number"
          fullWidth
          slotProps={{ htmlInput: { min: 1, max: 10 } }}
        />
      </Grid>
      <Grid size={{ xs: 6, sm: 3 }}>
        <FormTextField
          control={control}
          name="delay_minutes"
          label={t("fields.delayMinutes")}
          type="number"
          fullWidth
          slotProps={{ htmlInput: { min: 0 } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <Controller
          control={control}
          name="retry_on"
          render={({ field }) => (
            <FormGroup row aria-label={t("fields.retryOn")}>
              {RETRYABLE_OUTCOMES.map((outcome) => (
                <FormControlLabel
                  key={outcome}
                  label={t(`contactStatus.${outcome}`)}
                  control={
                    <Checkbox
                      checked={field.value.includes(outcome)}
                      onChange={(_e, on) =>
                        field.onChange(on ? [...field.value, outcome] : field.value.filter((o) => o !== outcome))
                      }
                    />
                  }
                />
              ))}
            </FormGroup>
          )}
        />
        <FormHelperText>{t("form.retryOnHelp")}</FormHelperText>
      </Grid>
    </>
  );
}
