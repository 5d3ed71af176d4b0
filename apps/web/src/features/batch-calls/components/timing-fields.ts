import { RETRYABLE_OUTCOMES } from "@parley/contract";
import type { TFunction } from "i18next";
import { type FieldSpec, HALF } from "../../../components/form-fields/field-spec.ts";
import { optionsOf } from "../../../components/menu-options.tsx";
import type { BatchFormValues } from "../forms/batch-call-form.ts";

const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const QUARTER = { xs: 6, sm: 3 };
const SHRUNK_LABEL = { inputLabel: { shrink: true } };

/** A weekday's short name in the interface language (ISO 1 = Monday). */
const dayName = (day: number, locale: string) =>
  new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, day)));

/** When contacts may be called: off (any time), or weekdays and hours in the recipient's or the campaign's zone. */
export const callingHoursFields = (t: TFunction, locale: string, on: boolean): FieldSpec<BatchFormValues>[] => [
  { kind: "switch", name: "window_enabled", label: t("fields.windowEnabled") },
  ...(on
    ? ([
        {
          kind: "checkboxes",
          name: "window_days",
          label: t("fields.days"),
          options: optionsOf(DAYS, (day) => dayName(day, locale)),
        },
        { name: "window_start", label: t("fields.windowStart"), type: "time", grid: QUARTER, slotProps: SHRUNK_LABEL },
        { name: "window_end", label: t("fields.windowEnd"), type: "time", grid: QUARTER, slotProps: SHRUNK_LABEL },
        {
          kind: "radios",
          name: "window_timezone",
          label: t("fields.windowBasis"),
          grid: HALF,
          options: [
            { value: "recipient", label: t("form.basisRecipient") },
            { value: "campaign", label: t("form.basisCampaign") },
          ],
        },
      ] satisfies FieldSpec<BatchFormValues>[])
    : []),
];

/** How often a contact is called, how long apart, and after which outcomes. */
export const retryFields = (t: TFunction): FieldSpec<BatchFormValues>[] => [
  {
    name: "max_attempts",
    label: t("fields.maxAttempts"),
    type: "number",
    grid: QUARTER,
    slotProps: { htmlInput: { min: 1, max: 10 } },
  },
  {
    name: "delay_minutes",
    label: t("fields.delayMinutes"),
    type: "number",
    grid: QUARTER,
    slotProps: { htmlInput: { min: 0 } },
  },
  {
    kind: "checkboxes",
    name: "retry_on",
    label: t("fields.retryOn"),
    grid: HALF,
    helperText: t("form.retryOnHelp"),
    options: optionsOf(RETRYABLE_OUTCOMES, (outcome) => t(`contactStatus.${outcome}`)),
  },
];
