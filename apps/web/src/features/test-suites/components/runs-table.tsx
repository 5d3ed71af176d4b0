import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import type { TestRunSummary, TestSuite } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { type Column, DataTable } from "../../../components/data-table.tsx";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { useDates } from "../../../lib/dates-in-language.ts";
import { RUNS_PAGE_SIZE, useTestRuns } from "../api/test-runs-api.ts";
import { testsPath } from "../paths.ts";
import { formatCost, formatMs } from "./outcome.ts";
import { OutcomeChip } from "./outcome-chip.tsx";

/** The suite's runs, newest first: status, how its cases came out, who started it, when, latency and cost. */
export function RunsTable({ suite }: { suite: TestSuite }) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const dates = useDates();
  const [page, setPage] = useState(1);
  const runs = useTestRuns(suite.id, page);
  const columns: Column<TestRunSummary>[] = [
    {
      header: t("columns.when"),
      cell: (run) => (
        <Link component={RouterLink} to={testsPath(suite.agent_id, suite.id, run.id)} sx={{ whiteSpace: "nowrap" }}>
          {dates.moment(run.created_at)}
        </Link>
      ),
    },
    { header: t("columns.status"), cell: (run) => <OutcomeChip status={run.status} /> },
    { header: t("columns.results"), cell: (run) => <Totals totals={run.totals} /> },
    {
      header: t("columns.version"),
      cell: (run) => (run.agent_version === null ? "—" : t("versionSelect.number", { number: run.agent_version })),
      sx: { whiteSpace: "nowrap" },
    },
    { header: t("columns.trigger"), cell: (run) => t(`trigger.${run.trigger}`) },
    { header: t("columns.p95"), dir: "ltr", cell: (run) => formatMs(run.latency_p95_ms) },
    { header: t("columns.cost"), dir: "ltr", cell: (run) => formatCost(run.cost) },
  ];
  return (
    <Box component="section" aria-labelledby="test-runs-heading">
      <Typography id="test-runs-heading" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t("run.heading")}
      </Typography>
      {runs.isPending ? (
        <ListSkeleton label={t("common.loading")} rows={2} />
      ) : runs.error && !runs.data ? (
        <RetryAlert
          error={runs.error}
          fallback={t("loadFailed")}
          retryLabel={t("retry")}
          onRetry={() => void runs.refetch()}
        />
      ) : runs.data && runs.data.total_count > 0 ? (
        <DataTable
          label={t("run.heading")}
          size="small"
          rows={runs.data.data}
          columns={columns}
          pagination={
            runs.data.total_count > RUNS_PAGE_SIZE
              ? { count: runs.data.total_count, page, pageSize: RUNS_PAGE_SIZE, onPage: setPage }
              : undefined
          }
        />
      ) : (
        <EmptyState title={t("run.emptyTitle")} hint={t("run.emptyHint")} />
      )}
    </Box>
  );
}

/** "2 passed · 1 failed" of N cases; the counts that are zero are left out. */
export function Totals({ totals }: { totals: TestRunSummary["totals"] }) {
  const { t } = useTranslation("test-suites");
  const parts = (["passed", "failed", "flaky", "error"] as const)
    .filter((key) => totals[key] > 0)
    .map((key) => t(`totals.${key}`, { n: totals[key] }));
  return (
    <Typography variant="body2" component="span" sx={{ whiteSpace: "nowrap" }}>
      {t("totals.cases", { n: totals.cases })}
      {parts.length > 0 ? ` · ${parts.join(" · ")}` : ""}
    </Typography>
  );
}
