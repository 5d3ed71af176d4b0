import Alert from "@mui/material/Alert";
import Stack from "@mui/material/Stack";
import type { WhatsappIntegrateResult } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { NewMessagingNumber } from "../../../api/phone-numbers.ts";
import { DoneDialog } from "../../../components/done-dialog.tsx";
import { DIGITS, HALF, TEL } from "../../../components/form-fields/field-spec.ts";
import { SchemaFormDialog } from "../../../components/schema-form-dialog.tsx";
import { useSchemaForm } from "../../../lib/use-schema-form.ts";
import { type MessagingValues, messagingForm, toMessagingBody } from "../forms/other-forms.ts";
import { useAssistantSelect } from "./assistant-select.tsx";
import { CopyValue } from "./copy-value.tsx";
import { messagingBrand } from "./provider-names.ts";

/**
 * Connect a business number of the messaging app so its voice calls reach an assistant. The server
 * checks the token and ids with the app's API before saving; then the dialog shows the webhook
 * address and verify token to paste into the app's developer settings.
 */
export function MessagingNumberDialog(props: {
  onClose: () => void;
  onSubmit: (body: NewMessagingNumber) => Promise<WhatsappIntegrateResult>;
}) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const brand = messagingBrand();
  const [result, setResult] = useState<WhatsappIntegrateResult | null>(null);
  const form = useSchemaForm(messagingForm, {
    number: "",
    access_token: "",
    phone_number_id: "",
    business_account_id: "",
    app_secret: "",
    friendly_name: "",
    agent_id: "",
  });
  const assistant = useAssistantSelect<MessagingValues>();
  if (result) return <WebhookSettings result={result} brand={brand} onClose={props.onClose} />;
  return (
    <SchemaFormDialog
      form={form}
      title={t("messaging.title", { provider: brand })}
      onClose={props.onClose}
      onValid={async (values) => setResult(await props.onSubmit(toMessagingBody(values)))}
      lockWhileBusy
      busySpinner
      busyLabel={t("messaging.checking")}
      submitLabel={t("messaging.submit")}
      fields={[
        {
          name: "number",
          label: t("fields.number"),
          helperText: t("messaging.numberHelp"),
          type: "tel",
          required: true,
          slotProps: TEL,
        },
        { name: "access_token", label: t("fields.accessToken"), type: "password", autoComplete: "off", required: true },
        { name: "phone_number_id", label: t("fields.phoneNumberId"), required: true, grid: HALF, slotProps: DIGITS },
        {
          name: "business_account_id",
          label: t("fields.businessAccountId"),
          required: true,
          grid: HALF,
          slotProps: DIGITS,
        },
        {
          name: "app_secret",
          label: t("fields.appSecret"),
          helperText: t("messaging.appSecretHelp"),
          type: "password",
          autoComplete: "off",
        },
        { name: "friendly_name", label: t("fields.friendlyName") },
        assistant("agent_id", t("fields.inbound")),
      ]}
    />
  );
}

function WebhookSettings(props: { result: WhatsappIntegrateResult; brand: string; onClose: () => void }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  return (
    <DoneDialog title={t("messaging.webhookTitle")} doneLabel={t("done")} onClose={props.onClose}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Alert severity="info">{t("messaging.webhookHint", { provider: props.brand })}</Alert>
        <CopyValue label={t("fields.callbackUrl")} value={props.result.webhook.callback_url} />
        <CopyValue label={t("fields.verifyToken")} value={props.result.webhook.verify_token} secret />
      </Stack>
    </DoneDialog>
  );
}
