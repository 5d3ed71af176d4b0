import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { PhoneNumber } from "@parley/contract";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useUpdatePhoneNumber } from "../../../api/phone-numbers.ts";
import { FormFields } from "../../../components/form-fields/form-fields.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { orNull } from "../forms/number-rules.ts";
import { useAssistantSelect } from "./assistant-select.tsx";
import { inboundTargetOf, inboundValueOf, useInboundSelect } from "./inbound-select.tsx";

interface Values {
  friendly_name: string;
  agent_id: string;
  outbound_agent_id: string;
}

const BESIDE = { xs: 12, md: 6 };

/** Who answers the number and who speaks when it calls out (and its name), saved together. */
export function AssistantsCard({ number }: { number: PhoneNumber }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const update = useUpdatePhoneNumber(number.id);
  const assistant = useAssistantSelect<Values>();
  const inbound = useInboundSelect<Values>();
  const form = useForm<Values>({
    values: {
      friendly_name: number.friendly_name,
      agent_id: inboundValueOf(number),
      outbound_agent_id: number.outbound_agent_id ?? "",
    },
  });
  const save = form.handleSubmit(async (values) => {
    const body = {
      friendly_name: values.friendly_name.trim(),
      ...inboundTargetOf(values.agent_id),
      outbound_agent_id: orNull(values.outbound_agent_id),
    };
    await notice.run(update.mutateAsync(body), t("updated"));
  });
  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="form" onSubmit={(event) => void save(event)} noValidate>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {t("detail.assistants")}
      </Typography>
      <Grid container spacing={2}>
        <FormFields
          control={form.control}
          fields={[
            { name: "friendly_name", label: t("fields.friendlyName"), slotProps: { htmlInput: { maxLength: 100 } } },
            inbound("agent_id", t("fields.inbound"), t("detail.inboundTargetHelp"), BESIDE),
            assistant("outbound_agent_id", t("fields.outbound"), t("detail.outboundHelp"), BESIDE),
          ]}
        />
        <Grid size={12}>
          <Button type="submit" variant="contained" disabled={!form.formState.isDirty || update.isPending}>
            {t("common.save")}
          </Button>
        </Grid>
      </Grid>
    </Paper>
  );
}
