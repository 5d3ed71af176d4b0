import Grid from "@mui/material/Grid";
import Stack from "@mui/material/Stack";
import { useTranslation } from "react-i18next";
import { useAssistantCount } from "../../../api/assistants.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { useCallStats } from "../api/home-api.ts";
import { FigureCards } from "../components/figure-cards.tsx";
import { QuickActionsCard } from "../components/quick-actions-card.tsx";
import { RecentCallsCard } from "../components/recent-calls-card.tsx";
import { WorkspaceCards } from "../components/workspace-cards.tsx";

/** The signed-in landing page: the workspace's figures, its latest calls, and where to start. */
export default function HomePage() {
  const { t } = useTranslation("home");
  const { user } = useAuth();
  const assistants = useAssistantCount();
  const stats = useCallStats();
  return (
    <>
      <PageHeader title={t("welcome", { name: user?.name ?? "" })} subtitle={t("subtitle")} />
      <Stack spacing={3}>
        <FigureCards assistants={assistants} stats={stats} />
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 8 }}>
            <RecentCallsCard stats={stats} />
          </Grid>
          <Grid size={{ xs: 12, md: 4 }}>
            <QuickActionsCard />
          </Grid>
        </Grid>
        <WorkspaceCards />
      </Stack>
    </>
  );
}
