import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Workspace } from "@parley/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSnackbar } from "notistack";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { useAuth } from "../../auth/auth-context.ts";
import { myLimitsQuery, updateWorkspace } from "../api/workspace-api.ts";

/** Rename, billing email and concurrency limit of a workspace (owners). */
export function WorkspaceSettingsCard({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  const { restore } = useAuth();
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const limits = useQuery(myLimitsQuery());
  const [name, setName] = useState(workspace.name);
  const [billingEmail, setBillingEmail] = useState(workspace.billing_email ?? "");
  const [concurrency, setConcurrency] = useState(String(workspace.concurrency_limit));
  const [busy, setBusy] = useState(false);
  const owner = workspace.role === "owner";
  const quota = limits.data?.concurrent_calls;
  const available =
    quota === null || quota === undefined
      ? null
      : quota - (limits.data?.allocated_concurrency ?? 0) + workspace.concurrency_limit;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await updateWorkspace(workspace.id, {
        name,
        billing_email: billingEmail || null,
        concurrency_limit: Number(concurrency),
      });
      await restore();
      await queryClient.invalidateQueries({ queryKey: ["users", "me", "limits"] });
      enqueueSnackbar(t("workspaces.saved"), { variant: "success" });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("workspaces.saveFailed")), { variant: "error" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
          {t("workspaces.settings")}
        </Typography>
        <Stack component="form" spacing={2} onSubmit={submit}>
          <TextField
            label={t("workspaces.name")}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            disabled={!owner}
          />
          <TextField
            label={t("workspaces.billingEmail")}
            type="email"
            value={billingEmail}
            onChange={(e) => setBillingEmail(e.target.value)}
            disabled={!owner}
          />
          <TextField
            label={t("workspaces.concurrencyLimit")}
            type="number"
            value={concurrency}
            onChange={(e) => setConcurrency(e.target.value)}
            disabled={!owner}
            slotProps={{ htmlInput: { min: 0, max: available ?? 10000 } }}
            helperText={
              available === null ? t("workspaces.noQuota") : t("workspaces.quotaAvailable", { count: available })
            }
          />
          {owner ? (
            <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: "flex-start" }}>
              {t("common.save")}
            </Button>
          ) : (
            <Typography color="text.secondary">{t("workspaces.ownersOnly")}</Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
