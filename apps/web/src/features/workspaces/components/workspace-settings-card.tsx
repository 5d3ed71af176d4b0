import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Workspace } from "@parley/contract";
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { SectionCard } from "../../../components/section-card.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useMyLimits, useUpdateWorkspace } from "../api/workspace-api.ts";

/** Rename, billing email and concurrency limit of a workspace (owners). */
export function WorkspaceSettingsCard({ workspace }: { workspace: Workspace }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const limits = useMyLimits();
  const updateWorkspace = useUpdateWorkspace();
  const [name, setName] = useState(workspace.name);
  const [billingEmail, setBillingEmail] = useState(workspace.billing_email ?? "");
  const [concurrency, setConcurrency] = useState(String(workspace.concurrency_limit));
  const owner = workspace.role === "owner";
  const quota = limits.data?.concurrent_calls;
  const available =
    quota === null || quota === undefined
      ? null
      : quota - (limits.data?.allocated_concurrency ?? 0) + workspace.concurrency_limit;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body = { name, billing_email: billingEmail || null, concurrency_limit: Number(concurrency) };
    await notice.run(updateWorkspace.mutateAsync(body), t("workspaces.saved"), t("workspaces.saveFailed"));
  };

  return (
    <SectionCard title={t("workspaces.settings")}>
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
          <Button
            type="submit"
            variant="contained"
            disabled={updateWorkspace.isPending}
            sx={{ alignSelf: "flex-start" }}
          >
            {t("common.save")}
          </Button>
        ) : (
          <Typography color="text.secondary">{t("workspaces.ownersOnly")}</Typography>
        )}
      </Stack>
    </SectionCard>
  );
}
