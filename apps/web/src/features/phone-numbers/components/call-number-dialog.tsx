import Typography from "@mui/material/Typography";
import type { PhoneNumber } from "@parley/contract";
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { TEL } from "../../../components/form-fields/field-spec.ts";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { compactNumber } from "../forms/number-rules.ts";
import { callForm } from "../forms/other-forms.ts";

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
  const form = useSchemaForm(schema, { destination_number: "" });
  const speaker = props.number.outbound_agent_name;
  return (
    <SchemaFormDialog
      form={form}
      title={t("call.title")}
      onClose={props.onClose}
      onValid={(values) => props.onSubmit(compactNumber(values.destination_number))}
      lockWhileBusy
      busySpinner
      busyLabel={t("call.calling")}
      submitLabel={t("call.submit")}
      fields={[
        {
          kind: "node",
          key: "from",
          node: (
            <>
              <Typography>
                {t("call.from")} <span dir="ltr">{props.number.number}</span>
              </Typography>
              <Typography color={speaker ? "text.secondary" : "warning.main"} variant="body2">
                {speaker ? t("call.speaker", { name: speaker }) : t("call.noSpeaker")}
              </Typography>
            </>
          ),
        },
        {
          name: "destination_number",
          label: t("fields.destination"),
          helperText: t("call.destinationHelp"),
          type: "tel",
          autoComplete: "off",
          required: true,
          autoFocus: true,
          slotProps: TEL,
        },
      ]}
    />
  );
}
