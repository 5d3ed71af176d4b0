import { zodResolver } from "@hookform/resolvers/zod";
import Autocomplete from "@mui/material/Autocomplete";
import Divider from "@mui/material/Divider";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Grid from "@mui/material/Grid";
import MenuItem from "@mui/material/MenuItem";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { BatchCallSummary } from "@parley/contract";
import { useId, useMemo, useState } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useAssistants } from "../../../api/assistants.ts";
import { usePhoneNumbers } from "../../../api/phone-numbers.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { type BatchFormValues, batchCallForm, batchFormDefaults, batchFormValues } from "../forms/batch-call-form.ts";
import { browserTimeZone, timeZones } from "../forms/zoned-time.ts";
import { CsvField } from "./csv-field.tsx";
import { CallingHoursFields, RetryFields } from "./timing-fields.tsx";

export interface BatchSave {
  values: BatchFormValues;
  file: File | null;
}

/**
 * Create a campaign, or edit one that has not started: who calls from which number, the numbers
 * (typed, pasted or a CSV), when it starts, when contacts may be called, retries and limits.
 */
export function BatchCallDialog(props: {
  batch: BatchCallSummary | null;
  onClose: () => void;
  onSubmit: (save: BatchSave) => Promise<void>;
}) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const creating = props.batch === null;
  const schema = useMemo(
    () =>
      batchCallForm(
        {
          nameRequired: t("rules.nameRequired"),
          fromRequired: t("rules.fromRequired"),
          scheduleRequired: t("rules.scheduleRequired"),
          schedulePast: t("rules.schedulePast"),
          timezoneInvalid: t("rules.timezoneInvalid"),
          windowEmpty: t("rules.windowEmpty"),
          wholeNumber: (min, max) => t("rules.wholeNumber", { min, max }),
          spendCap: t("rules.spendCap"),
          country: t("rules.country"),
          tooManyNumbers: t("rules.tooManyNumbers"),
        },
        { now: Date.now, creating },
      ),
    [t, creating],
  );
  const form = useForm<BatchFormValues>({
    resolver: zodResolver(schema),
    defaultValues: props.batch ? batchFormValues(props.batch) : batchFormDefaults(browserTimeZone()),
  });
  const { control } = form;
  const [file, setFile] = useState<File | null>(null);
  const start = useWatch({ control, name: "start" });
  const assistants = useAssistants();
  const numbers = usePhoneNumbers();
  const zones = useMemo(timeZones, []);
  const startLabel = useId();

  return (
    <FormDialog
      title={creating ? t("form.createTitle") : t("form.editTitle")}
      maxWidth="md"
      onClose={props.onClose}
      onSubmit={form.handleSubmit((values) => props.onSubmit({ values, file }))}
      busy={form.formState.isSubmitting}
      lockWhileBusy
      submitLabel={creating ? t("form.create") : t("common.save")}
      busyLabel={t("form.saving")}
    >
      <Grid size={12}>
        <FormTextField control={control} name="name" label={t("fields.name")} required fullWidth autoFocus />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="from_phone_number_id"
          label={t("fields.from")}
          select
          required
          fullWidth
          helperText={numbers.error ? t("numbersFailed") : numbers.data?.length === 0 ? t("form.noNumbers") : undefined}
        >
          {(numbers.data ?? []).map((n) => (
            <MenuItem key={n.id} value={n.id}>
              <span dir="ltr">{n.friendly_name ? `${n.friendly_name} (${n.number})` : n.number}</span>
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="agent_id"
          label={t("fields.assistant")}
          select
          fullWidth
          helperText={assistants.error ? t("assistantsFailed") : t("form.assistantHelp")}
        >
          <MenuItem value="">
            <em>{t("form.numbersAssistant")}</em>
          </MenuItem>
          {(assistants.data ?? []).map((a) => (
            <MenuItem key={a.id} value={a.id}>
              {a.name}
            </MenuItem>
          ))}
        </FormTextField>
      </Grid>

      <Section title={t("form.numbers")} />
      <Grid size={{ xs: 12, sm: 8 }}>
        <FormTextField
          control={control}
          name="numbers"
          label={creating ? t("fields.numbers") : t("fields.moreNumbers")}
          helperText={t("form.numbersHelp")}
          multiline
          minRows={3}
          maxRows={8}
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr" } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField
          control={control}
          name="default_country"
          label={t("fields.defaultCountry")}
          helperText={t("form.defaultCountryHelp")}
          fullWidth
          slotProps={{ htmlInput: { maxLength: 2, style: { textTransform: "uppercase" } } }}
        />
      </Grid>
      <Grid size={12}>
        <CsvField file={file} onChange={setFile} />
      </Grid>

      <Section title={t("form.schedule")} />
      <Grid size={12}>
        <FormLabel id={startLabel}>{t("fields.start")}</FormLabel>
        <Controller
          control={control}
          name="start"
          render={({ field }) => (
            <RadioGroup row aria-labelledby={startLabel} {...field}>
              <FormControlLabel value="now" control={<Radio />} label={t("form.startNow")} />
              <FormControlLabel value="later" control={<Radio />} label={t("form.startLater")} />
            </RadioGroup>
          )}
        />
      </Grid>
      {start === "later" && (
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormTextField
            control={control}
            name="scheduled_local"
            label={t("fields.scheduledTime")}
            type="datetime-local"
            required
            fullWidth
            slotProps={{ inputLabel: { shrink: true } }}
          />
        </Grid>
      )}
      <Grid size={{ xs: 12, sm: 6 }}>
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
      </Grid>

      <Section title={t("form.window")} />
      <CallingHoursFields control={control} />
      <Section title={t("form.retries")} />
      <RetryFields control={control} />

      <Section title={t("form.limits")} />
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="concurrency"
          label={t("fields.concurrency")}
          helperText={t("form.concurrencyHelp")}
          type="number"
          fullWidth
          slotProps={{ htmlInput: { min: 1 } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="spend_cap"
          label={t("fields.spendCap")}
          helperText={t("form.spendCapHelp")}
          type="number"
          fullWidth
          slotProps={{ htmlInput: { min: 0, step: "0.01" } }}
        />
      </Grid>
    </FormDialog>
  );
}

function Section({ title }: { title: string }) {
  return (
    <Grid size={12}>
      <Divider sx={{ mb: 1 }} />
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
        {title}
      </Typography>
    </Grid>
  );
}
