import { zodResolver } from "@hookform/resolvers/zod";
import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import type { PhoneNumber } from "@parley/contract";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { compactNumber } from "../forms/number-rules.ts";
import { type CallValues, callForm } from "../forms/other-forms.ts";

/** "Call a number": the number's outbound assistant calls the destination from this number. */
export function CallNumberDialog(props: {
  number: PhoneNumber;
  onClose: () => void;
  onSubmit: (destination: string) => Promise<void>;
}) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const schema = useMemo(
    () => callForm({ numberRequired: t("rules.numberRequired"), numberInvalid: t("rules.numberInvalid") }),
    [t],
  );
  const form = useForm<CallValues>({ resolver: zodResolver(schema), defaultValues: { destination_number: "" } });
  const speaker = props.number.outbound_agent_name;
  return (
    <FormDialog
      title={t("call.title")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit((values) => props.onSubmit(compactNumber(values.destination_number)))}
      busy={form.formState.isSubmitting}
      lockWhileBusy
      busySpinner
      busyLabel={t("call.calling")}
      submitLabel={t("call.submit")}
    >
      <Grid size={12}>
        <Typography>
          {t("call.from")} <span dir="ltr">{props.number.number}</span>
        </Typography>
        <Typography color={speaker ? "text.secondary" : "warning.main"} variant="body2">
          {speaker ? t("call.speaker", { name: speaker }) : t("call.noSpeaker")}
        </Typography>
      </Grid>
      <Grid size={12}>
        <FormTextField
          control={form.control}
          name="destination_number"
          label={t("fields.destination")}
          helperText={t("call.destinationHelp")}
          type="tel"
          autoComplete="off"
          required
          fullWidth
          autoFocus
          slotProps={{ htmlInput: { dir: "ltr", inputMode: "tel" } }}
        />
      </Grid>
    </FormDialog>
  );
}
