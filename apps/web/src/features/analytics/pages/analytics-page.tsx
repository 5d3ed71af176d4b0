import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import HistoryOutlined from "@mui/icons-material/HistoryOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import LinearProgress from "@mui/material/LinearProgress";
import Typography from "@mui/material/Typography";
import {
  AnalyticsBucket,
  AnalyticsDimension,
  type AnalyticsMetric,
  CallChannel,
  AnalyticsMetric as MetricSchema,
} from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useSearchParams } from "react-router";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import {
  type AnalyticsParams,
  downloadAnalyticsCsv,
  useAnalytics,
  useAnalyticsSettings,
  useFilterChoices,
} from "../api/analytics-api.ts";
import { AlertsSection } from "../components/alerts-section.tsx";
import { AnalyticsControls } from "../components/analytics-controls.tsx";
import { callLogsHref } from "../components/call-logs-link.ts";
import { DASHBOARD_METRICS, FIGURE_METRICS } from "../components/dashboard-metrics.ts";
import { useMetricFormat } from "../components/metric-format.ts";
import { ResultsTable } from "../components/results-table.tsx";
import { TimeZoneCard } from "../components/time-zone-card.tsx";
import { TrendChart } from "../components/trend-chart.tsx";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A hand-edited id the API would refuse is dropped, so the page never shows a validation error. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY_MS = 86_400_000;
const today = () => new Date().toISOString().slice(0, 10);
const daysBefore = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * DAY_MS).toISOString().slice(0, 10);

/** The page's state lives in the URL, so a view can be shared; anything unreadable falls back to the default. */
function usePageState() {
  const [search, setSearch] = useSearchParams();
  const pick = <T,>(key: string, parse: (v: string) => T | undefined, fallback: T) => {
    const raw = search.get(key);
    return raw === null ? fallback : (parse(raw) ?? fallback);
  };
  const to = pick("to", (v) => (DAY.test(v) ? v : undefined), today());
  const params: AnalyticsParams = {
    to,
    from: pick("from", (v) => (DAY.test(v) && v <= to ? v : undefined), daysBefore(to, 29)),
    bucket: pick("bucket", (v) => AnalyticsBucket.exclude(["total"]).safeParse(v).data, "day"),
    metrics: DASHBOARD_METRICS,
    groupBy: pick("group", (v) => AnalyticsDimension.safeParse(v).data, ""),
    assistantId: pick("assistant", (v) => (UUID.test(v) ? v : undefined), ""),
    phoneNumber: pick("phone", (v) => v.slice(0, 100), ""),
    campaignId: pick("campaign", (v) => (UUID.test(v) ? v : undefined), ""),
    channel: pick("channel", (v) => CallChannel.safeParse(v).data, ""),
  };
  const chartMetric = pick("chart", (v) => MetricSchema.safeParse(v).data, "calls" as AnalyticsMetric);
  const change = (next: Partial<AnalyticsParams> & { chartMetric?: AnalyticsMetric }) => {
    const merged = { ...params, chartMetric, ...next };
    const entries: [string, string][] = [
      ["from", merged.from],
      ["to", merged.to],
      ["bucket", merged.bucket === "day" ? "" : merged.bucket],
      ["group", merged.groupBy],
      ["assistant", merged.assistantId],
      ["phone", merged.phoneNumber],
      ["campaign", merged.campaignId],
      ["channel", merged.channel],
      ["chart", merged.chartMetric === "calls" ? "" : merged.chartMetric],
    ];
    setSearch(
      entries.filter(([, v]) => v !== ""),
      { replace: true },
    );
  };
  return { params, chartMetric, change };
}

function Figures({ totals }: { totals: Partial<Record<AnalyticsMetric, number | null>> }) {
  const f = useMetricFormat();
  return (
    <Box
      component="ul"
      sx={{
        listStyle: "none",
        p: 0,
        m: 0,
        mb: 3,
        display: "grid",
        gap: 2,
        gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))",
      }}
    >
      {FIGURE_METRICS.map((m) => (
        <Card component="li" variant="outlined" key={m}>
          <CardContent>
            <Typography variant="body2" color="text.secondary">
              {f.label(m)}
            </Typography>
            <Typography variant="h5" component="p" sx={{ fontWeight: 600 }} data-figure={m}>
              {f.value(m, totals[m])}
            </Typography>
          </CardContent>
        </Card>
      ))}
    </Box>
  );
}

/** /analytics: trends over a range of the workspace's days, by group, with CSV export, the time zone and alerts. */
export default function AnalyticsPage() {
  const { t } = useTranslation("analytics");
  const f = useMetricFormat();
  const { user } = useAuth();
  const notice = useNotice();
  const { params, chartMetric, change } = usePageState();
  const result = useAnalytics(params);
  const settings = useAnalyticsSettings();
  const choices = useFilterChoices(params.from, params.to);
  const [exporting, setExporting] = useState(false);
  const exportCsv = async () => {
    setExporting(true);
    await notice.run(downloadAnalyticsCsv(params), t("exported"), t("exportFailed"));
    setExporting(false);
  };
  return (
    <Box>
      <PageHeader
        title={t("title")}
        subtitle={settings.data ? t("subtitle", { zone: settings.data.time_zone }) : undefined}
        actions={
          <>
            {settings.data && !params.phoneNumber && (
              <Button
                component={RouterLink}
                to={callLogsHref(params, settings.data.time_zone)}
                startIcon={<HistoryOutlined />}
              >
                {t("openCallLogs")}
              </Button>
            )}
            <Button
              startIcon={<FileDownloadOutlined />}
              variant="outlined"
              disabled={exporting || !result.data}
              onClick={() => void exportCsv()}
            >
              {t("exportCsv")}
            </Button>
          </>
        }
      />
      <AnalyticsControls params={params} chartMetric={chartMetric} choices={choices} onChange={change} />
      <Box aria-live="polite" aria-busy={result.isFetching}>
        {result.isFetching && result.data && <LinearProgress aria-label={t("loading")} sx={{ mb: 1 }} />}
        {result.isPending ? (
          <CenteredSpinner />
        ) : result.isError ? (
          <RetryAlert
            error={result.error}
            fallback={t("loadFailed")}
            retryLabel={t("retry")}
            onRetry={() => void result.refetch()}
          />
        ) : (result.data.totals.attempts ?? 0) === 0 ? (
          <EmptyState title={t("empty.title")} hint={t("empty.hint")} />
        ) : (
          <>
            <Figures totals={result.data.totals} />
            <Card variant="outlined" sx={{ mb: 3 }}>
              <CardContent>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  {t("chart.title", { metric: f.label(chartMetric) })}
                </Typography>
                <TrendChart result={result.data} metric={chartMetric} />
              </CardContent>
            </Card>
            <Card variant="outlined" sx={{ mb: 3 }}>
              <CardContent>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  {t("table.title")}
                </Typography>
                <ResultsTable result={result.data} />
              </CardContent>
            </Card>
          </>
        )}
      </Box>
      <Box sx={{ display: "grid", gap: 3 }}>
        {settings.data && <TimeZoneCard key={settings.data.time_zone} zone={settings.data.time_zone} />}
        <AlertsSection defaultEmail={user?.email ?? ""} assistants={choices.assistants} />
      </Box>
    </Box>
  );
}
