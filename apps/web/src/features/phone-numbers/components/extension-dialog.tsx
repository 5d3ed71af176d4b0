import { zodResolver } from "@hookform/resolvers/zod";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import type { CreateExtensionResult } from "@parley/contract";
import { useId, useMemo, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { NewExtension } from "../../../api/phone-numbers.ts";
import { FormDialog } from "../../../components/form-dialog.tsx";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { type ExtensionValues, extensionForm, toExtensionBody } from "../forms/other-forms.ts";
import { AssistantField } from "./assistant-field.tsx";
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
  const form = useForm<ExtensionValues>({
    resolver: zodResolver(schema),
    defaultValues: { ext: "", domain: "", friendly_name: "", agent_id: "" },
  });
  if (created) return <SipCredentials result={created} onClose={props.onClose} />;
  return (
    <FormDialog
      title={t("extension.title")}
      maxWidth="sm"
      onClose={props.onClose}
      onSubmit={form.handleSubmit(async (values) => setCreated(await props.onSubmit(toExtensionBody(values))))}
      busy={form.formState.isSubmitting}
      submitLabel={t("extension.submit")}
    >
      <Grid size={{ xs: 12, sm: 4 }}>
        <FormTextField
          control={form.control}
          name="ext"
          label={t("fields.ext")}
          required
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr", inputMode: "numeric" } }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 8 }}>
        <FormTextField
          control={form.control}
          name="domain"
          label={t("fields.domain")}
          helperText={t("extension.domainHelp")}
          required
          fullWidth
          slotProps={{ htmlInput: { dir: "ltr" } }}
        />
      </Grid>
      <Grid size={12}>
        <FormTextField control={form.control} name="friendly_name" label={t("fields.friendlyName")} fullWidth />
      </Grid>
      <Grid size={12}>
        <AssistantField control={form.control} name="agent_id" label={t("fields.inbound")} />
      </Grid>
    </FormDialog>
  );
}

function SipCredentials({ result, onClose }: { result: CreateExtensionResult; onClose: () => void }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const titleId = useId();
  const { sip, phone_number: number } = result;
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {t("extension.createdTitle", { ext: number.extension?.ext ?? number.number })}
      </DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Alert severity="warning">{t("extension.onceOnly")}</Alert>
          <CopyValue label={t("fields.username")} value={sip.username} />
          <CopyValue label={t("fields.password")} value={sip.password} secret />
          <CopyValue label={t("fields.domain")} value={sip.domain} />
          <CopyValue label={t("fields.registrar")} value={sip.registrar} />
          <CopyValue label={t("fields.transport")} value={sip.transport.map((x) => x.toUpperCase()).join(", ")} />
          <ExtensionStatusChip extension={number.extension?.ext ?? number.number} domain={sip.domain} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t("done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
