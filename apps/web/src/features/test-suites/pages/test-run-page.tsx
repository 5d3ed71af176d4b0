import PlayArrow from "@mui/icons-material/PlayArrow";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import type { TestRun, TestSuite } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { DescriptionList } from "../../../components/description-list.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { useDates } from "../../../lib/dates-in-language.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { runIsLive, useCancelTestRun, useTestRun } from "../api/test-runs-api.ts";
import { useTestSuite } from "../api/test-suites-api.ts";
import { AssistantTrail } from "../components/assistant-trail.tsx";
import { CaseOutcomes } from "../components/case-outcomes.tsx";
import { ComparisonCard } from "../components/comparison-card.tsx";
import { formatCost, formatMs } from "../components/outcome.ts";
import { OutcomeChip } from "../components/outcome-chip.tsx";
import { Totals } from "../components/runs-table.tsx";
import { useStartRun } from "../hooks/use-start-run.ts";
import { testsPath } from "../paths.ts";

/** /assistants/{assistantId}/tests/{suiteId}/runs/{runId}: a run, live while it goes, then its verdicts. */
export default function TestRunPage() {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const { assistantId = "", suiteId = "", runId = "" } = useParams();
  const suite = useTestSuite(suiteId);
  const run = useTestRun(suiteId, runId);
  const failed = suite.error ?? run.error;
  if (suite.data && run.data) return <Run suite={suite.data} run={run.data} />;
  return (
    <>
      <AssistantTrail assistantId={assistantId} />
      {failed && !(suite.isPending || run.isPending) ? (
        <Alert severity="error">
          {failed instanceof ApiError && failed.status === 404 ? t("run.notFound") : errorText(failed, t("loadFailed"))}
        </Alert>
      ) : (
        <ListSkeleton label={t("common.loading")} rows={4} />
      )}
    </>
  );
}

function Run({ suite, run }: { suite: TestSuite; run: TestRun }) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const dates = useDates();
  const notice = useNotice();
  const cancel = useCancelTestRun(suite.id);
  const again = useStartRun(suite);
  const [asking, setAsking] = useState(false);
  const live = runIsLive(run.status);
  const when = dates.moment(run.created_at);

  const confirmCancel = async () => {
    setAsking(false);
    await notice.run(cancel.mutateAsync(run.id), t("run.cancelled"));
  };

  return (
    <>
      <AssistantTrail assistantId={suite.agent_id} suite={suite} run={t("run.title", { when })} />
      <PageHeader
        title={t("run.title", { when })}
        actions={
          live ? (
            <Button color="warning" variant="outlined" disabled={cancel.isPending} onClick={() => setAsking(true)}>
              {t("run.cancel")}
            </Button>
          ) : (
            <Button
              variant="contained"
              startIcon={<PlayArrow />}
              disabled={again.busy}
              onClick={() => void again.run()}
            >
              {t("run.again")}
            </Button>
          )
        }
      />
      <Stack spacing={3}>
        <Paper variant="outlined" sx={{ p: 2 }} aria-live="polite">
          <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: "center", flexWrap: "wrap", mb: 1.5 }}>
            <OutcomeChip status={run.status} />
            <Totals totals={run.totals} />
          </Stack>
          <DescriptionList
            columns={{ xs: "1fr", sm: "max-content 1fr" }}
            rowGap={0.5}
            rows={[
              [t("columns.trigger"), t(`trigger.${run.trigger}`)],
              [
                t("run.version"),
                run.agent_version === null ? "—" : t("versionSelect.number", { number: run.agent_version }),
              ],
              [t("run.repeat"), String(run.repeat)],
              [t("run.started"), run.started_at ? dates.moment(run.started_at) : "—"],
              [t("run.finished"), run.finished_at ? dates.moment(run.finished_at) : "—"],
              [t("columns.p95"), <bdi key="p95">{formatMs(run.latency_p95_ms)}</bdi>],
              [t("columns.cost"), <bdi key="cost">{formatCost(run.cost)}</bdi>],
            ]}
          />
        </Paper>
        {run.comparison && (
          <ComparisonCard
            comparison={run.comparison}
            previousPath={testsPath(suite.agent_id, suite.id, run.comparison.previous_run_id)}
          />
        )}
        <CaseOutcomes run={run} />
      </Stack>
      <ConfirmDialog
        open={asking}
        title={t("run.cancelTitle")}
        text={t("run.cancelText")}
        confirmLabel={t("run.cancel")}
        busy={cancel.isPending}
        onClose={() => setAsking(false)}
        onConfirm={() => void confirmCancel()}
      />
    </>
  );
}
