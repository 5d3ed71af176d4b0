import Alert from "@mui/material/Alert";
import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type Integration, IntegrationKind, type IntegrationTestResult } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useIntegrations } from "../../../api/integrations.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useRemoveIntegration, useSaveIntegration, useTestIntegration } from "../api/integrations-api.ts";
import type { CredentialValues } from "../components/credentials-form.ts";
import { IntegrationCard } from "../components/integration-card.tsx";
import { IntegrationDialog } from "../components/integration-dialog.tsx";

/** Per provider: the result of a test run on this page, and which provider is being tested now. */
function useConnectionTests() {
  const notice = useNotice();
  const test = useTestIntegration();
  const [results, setResults] = useState<Record<string, IntegrationTestResult>>({});
  const run = async (provider: string) => {
    try {
      const result = await test.mutateAsync({ provider });
      setResults((r) => ({ ...r, [provider]: result }));
    } catch (error) {
      notice.failure(error);
    }
  };
  const forget = (provider: string) => setResults(({ [provider]: _dropped, ...rest }) => rest);
  const testing = test.isPending ? test.variables.provider : null;
  return { results, testing, run, forget };
}

/** Integrations: the workspace's credentials for every provider, grouped by what they do. */
export default function IntegrationsPage() {
  const { t } = useTranslation(["integrations", "translation"], { nsMode: "fallback" });
  const { workspace } = useAuth();
  const notice = useNotice();
  const integrations = useIntegrations();
  const saveIntegration = useSaveIntegration();
  const removeIntegration = useRemoveIntegration();
  const tests = useConnectionTests();
  const [editing, setEditing] = useState<Integration | null>(null);
  const [removing, setRemoving] = useState<Integration | null>(null);
  // Changing credentials is for owners (the API answers 403 to members): members see why up front.
  const readOnlyReason = workspace?.role === "owner" ? null : t("ownerOnly");

  const save = async (credentials: CredentialValues) => {
    if (!editing) return;
    // A failure is thrown back to the dialog, which keeps what was typed and shows why.
    await saveIntegration.mutateAsync({ provider: editing.provider, credentials });
    tests.forget(editing.provider);
    notice.success(t("saved", { name: editing.label }));
    setEditing(null);
  };

  const remove = async (integration: Integration) => {
    setRemoving(null);
    const removed = removeIntegration.mutateAsync(integration.provider).then(() => tests.forget(integration.provider));
    await notice.run(removed, t("removed", { name: integration.label }));
  };

  return (
    <>
      <PageHeader title={t("nav.integrations")} subtitle={t("subtitle")} />
      {readOnlyReason && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t("membersReadOnly")}
        </Alert>
      )}
      {integrations.isPending && <ListSkeleton label={t("common.loading")} rows={4} height={120} />}
      {integrations.isError && <Alert severity="error">{errorText(integrations.error, t("common.failed"))}</Alert>}
      {integrations.data && (
        <Stack spacing={4}>
          {IntegrationKind.options.map((kind) => {
            const group = integrations.data.filter((i) => i.kind === kind);
            if (group.length === 0) return null;
            return (
              <section key={kind} aria-labelledby={`kind-${kind}`}>
                <Typography id={`kind-${kind}`} variant="h5" component="h2" sx={{ mb: 2 }}>
                  {t(`kinds.${kind}`)}
                </Typography>
                <Grid container spacing={2}>
                  {group.map((integration) => (
                    <Grid key={integration.provider} size={{ xs: 12, sm: 6, lg: 4 }}>
                      <IntegrationCard
                        integration={integration}
                        testResult={tests.results[integration.provider] ?? null}
                        testing={tests.testing === integration.provider}
                        onEdit={() => setEditing(integration)}
                        onTest={() => void tests.run(integration.provider)}
                        onRemove={() => setRemoving(integration)}
                        readOnlyReason={readOnlyReason}
                      />
                    </Grid>
                  ))}
                </Grid>
              </section>
            );
          })}
        </Stack>
      )}
      {editing && <IntegrationDialog integration={editing} onClose={() => setEditing(null)} onSubmit={save} />}
      <ConfirmDialog
        open={removing !== null}
        title={t("removeTitle", { name: removing?.label ?? "" })}
        text={t("removeText", { name: removing?.label ?? "" })}
        confirmLabel={t("remove")}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && void remove(removing)}
      />
    </>
  );
}
