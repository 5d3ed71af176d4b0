import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { PhoneNumber } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useUpdatePhoneNumber } from "../../../api/phone-numbers.ts";
import { errorText } from "../../../components/error-text.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { orNull } from "../forms/number-rules.ts";
import { AssistantField } from "./assistant-field.tsx";

interface Values {
  friendly_name: string;
  agent_id: string;
  outbound_agent_id: string;
}

/** Who answers the number and who speaks when it calls out (and its name), saved together. */
export function AssistantsCard({ number }: { number: PhoneNumber }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const update = useUpdatePhoneNumber(number.id);
  const form = useForm<Values>({
    values: {
      friendly_name: number.friendly_name,
      agent_id: number.agent_id ?? "",
      outbound_agent_id: number.outbound_agent_id ?? "",
    },
  });
  const save = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync({
        friendly_name: values.friendly_name.trim(),
        agent_id: orNull(values.agent_id),
        outbound_agent_id: orNull(values.outbound_agent_id),
      });
      enqueueSnackbar(t("updated"), { variant: "success" });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });
    }
  });
  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="form" onSubmit={(event) => void save(event)} noValidate>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {t("detail.assistants")}
      </Typography>
      <Grid container spacing={2}>
        <Grid size={12}>
          <FormTextField
            control={form.control}
            name="friendly_name"
            label={t("fields.friendlyName")}
            fullWidth
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <AssistantField
            control={form.control}
            name="agent_id"
            label={t("fields.inbound")}
            helperText={t("detail.inboundHelp")}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <AssistantField
            control={form.control}
            name="outbound_agent_id"
            label={t("fields.outbound")}
            helperText={t("detail.outboundHelp")}
          />
        </Grid>
        <Grid size={12}>
          <Button type="submit" variant="contained" disabled={!form.formState.isDirty || update.isPending}>
            {t("common.save")}
          </Button>
        </Grid>
      </Grid>
    </Paper>
  );
}
