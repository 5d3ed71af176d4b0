import FileDownloadOutlined from "@mui/icons-material/FileDownloadOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useDeferredQuery } from "../../../lib/use-deferred-query.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { downloadStatement, type StatementFormat, useBillingUsage, usePaymentStatus } from "../api/billing-api.ts";
import { DailyChart } from "../components/daily-chart.tsx";
import { useFormatters } from "../components/formatters.ts";
import { PlanCard } from "../components/plan-card.tsx";
import { AssistantTable, ComponentTable, PeriodsTable } from "../components/usage-tables.tsx";

const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A label may break onto two lines in a half-width button on a phone rather than overflow it. */
const STATEMENT_BUTTON = { whiteSpace: { sm: "nowrap" } } as const;

/**
 * The month picker and the two statement downloads. On a phone the picker takes the row and the
 * buttons share the row below, half each: in one line they were wider than the screen and the
 * buttons were drawn over the picker.
 */
function StatementControls({ children }: { children: ReactNode }) {
  return (
    <Box
      data-testid="statement-controls"
      sx={{
        display: "grid",
        gap: 1,
        alignItems: "center",
        width: { xs: "100%", sm: "auto" },
        gridTemplateColumns: { xs: "repeat(2, minmax(0, 1fr))", sm: "auto auto auto" },
      }}
    >
      {children}
    </Box>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Card variant="outlined">
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" sx={{ fontWeight: 600 }}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** /billing: the month's minutes and cost against the plan, per day, provider and assistant; statements. */
export default function BillingPage() {
  const { t } = useTranslation(["billing", "translation"], { nsMode: "fallback" });
  const f = useFormatters();
  const notice = useNotice();
  const [search, setSearch] = useSearchParams();
  const asked = search.get("period");
  const period = asked && PERIOD.test(asked) ? asked : undefined;
  // The figures are drawn in an interruptible render once they arrive (lib/use-deferred-query.ts).
  const usage = useDeferredQuery(useBillingUsage(period));
  const payments = usePaymentStatus();
  const [downloading, setDownloading] = useState<StatementFormat | null>(null);

  const choose = (next: string) => setSearch(next === usage.data?.periods[0]?.period ? {} : { period: next });
  const download = async (which: string, format: StatementFormat) => {
    setDownloading(format);
    await notice.run(
      downloadStatement(which, format),
      t("downloaded", { period: f.period(which) }),
      t("downloadFailed"),
    );
    setDownloading(null);
  };

  // The heading shows at once (it is also the page's pre-rendered frame); the figures follow.
  if (usage.isPending) {
    return (
      <>
        <PageHeader title={t("nav.billing")} subtitle={t("subtitle")} />
        <CenteredSpinner />
      </>
    );
  }
  if (usage.isError) {
    return (
      <>
        <PageHeader title={t("nav.billing")} subtitle={t("subtitle")} />
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void usage.refetch()}>
              {t("retry")}
            </Button>
          }
        >
          {errorText(usage.error, t("loadFailed"))}
        </Alert>
      </>
    );
  }
  const data = usage.data;
  return (
    <>
      <PageHeader
        title={t("nav.billing")}
        subtitle={t("subtitle")}
        actions={
          <StatementControls>
            <TextField
              select
              size="small"
              label={t("period")}
              value={data.period}
              onChange={(event) => choose(event.target.value)}
              sx={{ minWidth: 180, gridColumn: { xs: "1 / -1", sm: "auto" } }}
            >
              {data.periods.map((p) => (
                <MenuItem key={p.period} value={p.period}>
                  {f.period(p.period)}
                </MenuItem>
              ))}
            </TextField>
            <Button
              variant="outlined"
              startIcon={<FileDownloadOutlined />}
              disabled={downloading !== null}
              onClick={() => void download(data.period, "csv")}
              sx={STATEMENT_BUTTON}
            >
              {t("downloadCsv")}
            </Button>
            <Button
              variant="contained"
              startIcon={<FileDownloadOutlined />}
              disabled={downloading !== null}
              onClick={() => void download(data.period, "pdf")}
              sx={STATEMENT_BUTTON}
            >
              {t("downloadPdf")}
            </Button>
          </StatementControls>
        }
      />
      <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: "repeat(3, 1fr)" }, mb: 2 }}>
        <Figure label={t("minutesIn", { period: f.period(data.period) })} value={f.minutes(data.minutes)} />
        <Figure label={t("costIn", { period: f.period(data.period) })} value={f.money(data.cost)} />
        <Figure label={t("callsIn", { period: f.period(data.period) })} value={f.count(data.calls)} />
      </Box>
      <Box
        sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", md: data.plan ? "1fr 2fr" : "1fr" }, mb: 2 }}
      >
        {data.plan && <PlanCard plan={data.plan} workspaceMinutes={data.minutes} payments={payments.data} />}
        <Card variant="outlined">
          <CardContent>
            <Typography variant="h6" component="h2" gutterBottom>
              {t("daily")}
            </Typography>
            <DailyChart start={data.period_start} end={data.period_end} days={data.daily} />
          </CardContent>
        </Card>
      </Box>
      {data.calls === 0 ? (
        <EmptyState title={t("emptyTitle")} hint={t("emptyHint")} />
      ) : (
        <Box sx={{ display: "grid", gap: 2, gridTemplateColumns: { xs: "1fr", lg: "1fr 1fr" }, mb: 2 }}>
          <ComponentTable usage={data} />
          <AssistantTable usage={data} />
        </Box>
      )}
      <Box sx={{ mt: 2 }}>
        <PeriodsTable usage={data} onOpen={choose} onDownload={(p, format) => void download(p, format)} />
      </Box>
    </>
  );
}
