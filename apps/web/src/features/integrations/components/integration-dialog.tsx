import { zodResolver } from "@hookform/resolvers/zod";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import type { Integration, IntegrationTestResult } from "@parley/contract";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { FormTextField } from "../../../components/form-text-field.tsx";
import { useTestIntegration } from "../api/integrations-api.ts";
import { type CredentialValues, credentialDefaults, credentialsSchema, fieldLabel } from "./credentials-form.ts";

type Outcome = { kind: "test"; result: IntegrationTestResult } | { kind: "error"; message: string } | null;

/**
 * Connect a provider or edit its credentials. Secrets are password inputs that start empty: left
 * blank, the stored secret is kept. "Test connection" tries what is typed before anything is saved.
 */
export function IntegrationDialog(props: {
  integration: Integration;
  onClose: () => void;
  onSubmit: (credentials: CredentialValues) => Promise<void>;
}) {
  const { t } = useTranslation(["integrations", "translation"], { nsMode: "fallback" });
  const { integration } = props;
  const [outcome, setOutcome] = useState<Outcome>(null);
  const tester = useTestIntegration();
  const form = useForm<CredentialValues>({
    resolver: zodResolver(credentialsSchema(integration, t)),
    defaultValues: credentialDefaults(integration),
  });
  const busy = form.formState.isSubmitting || tester.isPending;

  const submit = form.handleSubmit(async (values) => {
    setOutcome(null);
    try {
      await props.onSubmit(values);
    } catch (error) {
      setOutcome({ kind: "error", message: errorText(error, t("common.failed")) });
    }
  });
  const test = form.handleSubmit(async (values) => {
    setOutcome(null);
    try {
      const result = await tester.mutateAsync({ provider: integration.provider, credentials: values });
      setOutcome({ kind: "test", result });
    } catch (error) {
      setOutcome({ kind: "error", message: errorText(error, t("common.failed")) });
    }
  });

  const titleId = `integration-dialog-${integration.provider}`;
  return (
    <Dialog open onClose={busy ? undefined : props.onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>
          {t(integration.configured ? "editTitle" : "connectTitle", { name: integration.label })}
        </DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {integration.fields.map((field) => {
              const stored = integration.values[field.name];
              const help = field.secret && stored ? t("secretKeep", { masked: stored }) : undefined;
              return (
                <FormTextField
                  key={field.name}
                  control={form.control}
                  name={field.name}
                  label={fieldLabel(field, t)}
                  type={field.secret ? "password" : field.url ? "url" : "text"}
                  autoComplete={field.secret ? "new-password" : "off"}
                  required={!field.optional && !(field.secret && stored)}
                  helperText={help}
                  fullWidth
                  slotProps={{ htmlInput: { dir: "ltr", spellCheck: false } }}
                />
              );
            })}
            {outcome?.kind === "test" && (
              <Alert severity={outcome.result.ok ? "success" : "error"} role="status">
                {outcome.result.ok ? t("testOk") : t("testFailed")} {outcome.result.message}
              </Alert>
            )}
            {outcome?.kind === "error" && <Alert severity="error">{outcome.message}</Alert>}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button onClick={() => void test()} disabled={busy}>
            {tester.isPending ? t("testing") : t("test")}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
