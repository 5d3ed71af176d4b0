import { zodResolver } from "@hookform/resolvers/zod";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import type { WhatsappIntegrateResult } from "@parley/contract";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { NewMessagingNumber } from "../../../api/phone-numbers.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { type MessagingValues, messagingForm, toMessagingBody } from "../forms/other-forms.ts";
import { AssistantField } from "./assistant-field.tsx";
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
  const form = useForm<MessagingValues>({
    resolver: zodResolver(messagingForm),
    defaultValues: {
      number: "",
      access_token: "",
      phone_number_id: "",
      business_account_id: "",
      app_secret: "",
      friendly_name: "",
      agent_id: "",
    },
  });
  if (result) return <WebhookSettings result={result} brand={brand} onClose={props.onClose} />;
  const { control } = form;
  return (
    <FormDialog
      title={t("messaging.title", { provider: brand })}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit(async (values) => setResult(await props.onSubmit(toMessagingBody(values))))}
      busy={form.formState.isSubmitting}
      lockWhileBusy
      busySpinner
      busyLabel={t("messaging.checking")}
      submitLabel={t("messaging.submit")}
    >
      <Grid size={12}>
        <FormTextField
          control={control}
          name="number"
          label={t("fields.number")}
          helperText={t("messaging.numberHelp")}
          type="tel"
          required
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr", inputMode: "tel" } }}
        />
      </Grid>
      <Grid size={12}>
        <FormTextField
          control={control}
          name="access_token"
          label={t("fields.accessToken")}
          type="password"
          autoComplete="off"
          required
          fullWidth
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="phone_number_id"
          label={t("fields.phoneNumberId")}
          required
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr", inputMode: "numeric" } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <FormTextField
          control={control}
          name="business_account_id"
          label={t("fields.businessAccountId")}
          required
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr", inputMode: "numeric" } }}
        />
      </Grid>
      <Grid size={12}>
        <FormTextField
          control={control}
          name="app_secret"
          label={t("fields.appSecret")}
          helperText={t("messaging.appSecretHelp")}
          type="password"
          autoComplete="off"
          fullWidth
        />
      </Grid>
      <Grid size={12}>
        <FormTextField control={control} name="friendly_name" label={t("fields.friendlyName")} fullWidth />
      </Grid>
      <Grid size={12}>
        <AssistantField control={control} name="agent_id" label={t("fields.inbound")} />
      </Grid>
    </FormDialog>
  );
}

function WebhookSettings(props: { result: WhatsappIntegrateResult; brand: string; onClose: () => void }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const titleId = useId();
  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{t("messaging.webhookTitle")}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="info">{t("messaging.webhookHint", { provider: props.brand })}</Alert>
          <CopyValue label={t("fields.callbackUrl")} value={props.result.webhook.callback_url} />
          <CopyValue label={t("fields.verifyToken")} value={props.result.webhook.verify_token} secret />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={props.onClose}>
          {t("done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
