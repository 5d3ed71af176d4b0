import Grid from "@mui/material/Grid";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { PageHeader } from "../../../components/page-header.tsx";
import { SectionCard } from "../../../components/section-card.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { useMyLimits } from "../api/workspace-api.ts";
import { InvitationCard } from "../components/invitation-card.tsx";
import { MembersCard } from "../components/members-card.tsx";
import { WorkspaceSettingsCard } from "../components/workspace-settings-card.tsx";

function QuotaCard() {
  const { t } = useTranslation();
  const limits = useMyLimits();
  const rows = limits.data
    ? [
        [t("quota.concurrentCalls"), limits.data.concurrent_calls, limits.data.allocated_concurrency],
        [t("quota.workspaces"), limits.data.max_workspaces, limits.data.owned_workspaces],
        [t("quota.assistants"), limits.data.max_assistants, null],
        [t("quota.minutes"), limits.data.minutes_per_month, null],
      ]
    : [];
  return (
    <SectionCard title={t("quota.title")} gap={1}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {limits.data ? t(`quota.source.${limits.data.source}`) : t("common.loading")}
      </Typography>
      {rows.map(([label, limit, used]) => (
        <Typography key={String(label)} sx={{ display: "flex", justifyContent: "space-between", py: 0.5 }}>
          <span>{label}</span>
          <strong>
            {used !== null ? `${used} / ` : ""}
            {limit ?? t("quota.unlimited")}
          </strong>
        </Typography>
      ))}
    </SectionCard>
  );
}

/**
 * Enterprise quota and management of the current workspace (switch workspaces in the topbar); also
 * where an invitation email's link lands.
 */
export default function EnterpriseQuotaPage() {
  const { t } = useTranslation();
  const { workspace } = useAuth();
  const invitation = useSearchParams()[0].get("invitation");
  return (
    <>
      <PageHeader
        title={t("nav.enterpriseQuota")}
        subtitle={workspace ? t("workspaces.managing", { name: workspace.name }) : undefined}
      />
      <Grid container spacing={3}>
        {invitation && (
          <Grid size={12}>
            <InvitationCard token={invitation} />
          </Grid>
        )}
        <Grid size={{ xs: 12, md: 5 }}>
          <QuotaCard />
        </Grid>
        <Grid size={{ xs: 12, md: 7 }}>
          {workspace && <WorkspaceSettingsCard key={workspace.id + workspace.name} workspace={workspace} />}
        </Grid>
        <Grid size={12}>{workspace && <MembersCard workspace={workspace} />}</Grid>
      </Grid>
    </>
  );
}
