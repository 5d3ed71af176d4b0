import AddOutlined from "@mui/icons-material/AddOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { useExperiments } from "../api/experiments-api.ts";
import { useVersions } from "../api/versions-api.ts";
import { ExperimentCard } from "./experiment-card.tsx";
import { ExperimentDialog } from "./experiment-dialog.tsx";

/** The assistant's experiments, newest first, and a new one (it takes two versions at least). */
export function ExperimentsSection({ assistantId }: { assistantId: string }) {
  const { t } = useTranslation("assistants");
  const { enqueueSnackbar } = useSnackbar();
  const experiments = useExperiments(assistantId);
  const versions = useVersions(assistantId);
  const [creating, setCreating] = useState(false);
  const numbers = versions.data?.map((version) => version.number) ?? [];
  const canCreate = numbers.length >= 2;
  const live = experiments.data?.some((e) => e.status === "running" || e.status === "paused") ?? false;
  const createButton = (
    <Button
      variant="outlined"
      startIcon={<AddOutlined />}
      disabled={!canCreate}
      onClick={() => setCreating(true)}
      sx={{ alignSelf: "flex-start" }}
    >
      {t("experiments.new")}
    </Button>
  );
  return (
    <Box component="section" aria-labelledby="experiments-heading">
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 1, justifyContent: "space-between", mb: 1 }}>
        <Typography id="experiments-heading" variant="h6" component="h2">
          {t("experiments.title")}
        </Typography>
        {experiments.data && experiments.data.length > 0 && createButton}
      </Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {canCreate ? t("experiments.intro") : t("experiments.needTwo")}
        {live ? ` ${t("experiments.oneLive")}` : ""}
      </Typography>
      {experiments.isPending && <ListSkeleton label={t("experiments.loading")} rows={1} height={96} />}
      {experiments.isError && (
        <RetryAlert
          error={experiments.error}
          fallback={t("experiments.loadFailed")}
          retryLabel={t("versions.retry")}
          onRetry={() => void experiments.refetch()}
        />
      )}
      {experiments.data?.length === 0 && (
        <EmptyState title={t("experiments.emptyTitle")} hint={t("experiments.emptyHint")} action={createButton} />
      )}
      {experiments.data?.map((experiment) => (
        <ExperimentCard key={experiment.id} assistantId={assistantId} experiment={experiment} />
      ))}
      {creating && (
        <ExperimentDialog
          assistantId={assistantId}
          versions={numbers}
          onCreated={(name) => {
            setCreating(false);
            enqueueSnackbar(t("experiments.created", { name }), { variant: "success" });
          }}
          onClose={() => setCreating(false)}
        />
      )}
    </Box>
  );
}
