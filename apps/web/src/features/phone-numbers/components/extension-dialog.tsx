import Alert from "@mui/material/Alert";
import Stack from "@mui/material/Stack";
import type { CreateExtensionResult } from "@parley/contract";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { NewExtension } from "../../../api/phone-numbers.ts";
import { DoneDialog } from "../../../components/done-dialog.tsx";
import { DIGITS, LTR } from "../../../components/form-fields/field-spec.ts";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { type ExtensionValues, extensionForm, toExtensionBody } from "../forms/other-forms.ts";
import { useAssistantSelect } from "./assistant-select.tsx";
import { CopyValue } from "./copy-value.tsx";
import { ExtensionStatusChip } from "./extension-status-chip.tsx";

/**
 * Create a SIP extension a desk phone or softphone registers with. The password is shown once,
 * here, with the rest of what the phone needs; the registration status then follows live, so the
 * person setting up the phone sees it register.
 */
export function ExtensionDialog(props: {
  onClose: () => void;
  onSubmit: (body: NewExtension) => Promise<CreateExtensionResult>;
}) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const [created, setCreated] = useState<CreateExtensionResult | null>(null);
  const schema = useMemo(
    () => extensionForm({ extInvalid: t("rules.extInvalid"), domainInvalid: t("rules.domainInvalid") }),
    [t],
  );
  const form = useSchemaForm(schema, { ext: "", domain: "", friendly_name: "", agent_id: "" });
  const assistant = useAssistantSelect<ExtensionValues>();
  if (created) return <SipCredentials result={created} onClose={props.onClose} />;
  return (
    <SchemaFormDialog
      form={form}
      title={t("extension.title")}
      onClose={props.onClose}
      onValid={async (values) => setCreated(await props.onSubmit(toExtensionBody(values)))}
      submitLabel={t("extension.submit")}
      fields={[
        { name: "ext", label: t("fields.ext"), required: true, grid: { xs: 12, sm: 4 }, slotProps: DIGITS },
        {
          name: "domain",
          label: t("fields.domain"),
          helperText: t("extension.domainHelp"),
          required: true,
          grid: { xs: 12, sm: 8 },
          slotProps: LTR,
        },
        { name: "friendly_name", label: t("fields.friendlyName") },
        assistant("agent_id", t("fields.inbound")),
      ]}
    />
  );
}

function SipCredentials({ result, onClose }: { result: CreateExtensionResult; onClose: () => void }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const { sip, phone_number: number } = result;
  return (
    <DoneDialog
      title={t("extension.createdTitle", { ext: number.extension?.ext ?? number.number })}
      doneLabel={t("done")}
      onClose={onClose}
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Alert severity="warning">{t("extension.onceOnly")}</Alert>
        <CopyValue label={t("fields.username")} value={sip.username} />
        <CopyValue label={t("fields.password")} value={sip.password} secret />
        <CopyValue label={t("fields.domain")} value={sip.domain} />
        <CopyValue label={t("fields.registrar")} value={sip.registrar} />
        <CopyValue label={t("fields.transport")} value={sip.transport.map((x) => x.toUpperCase()).join(", ")} />
        <ExtensionStatusChip extension={number.extension?.ext ?? number.number} domain={sip.domain} />
      </Stack>
    </DoneDialog>
  );
}
