import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import type { Experiment, VariantResult } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { DataTable } from "../../../components/data-table.tsx";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { useExperimentResults } from "../api/experiments-api.ts";
import { evidenceOf } from "../utils/experiment-form.ts";

/** Figures as the interface language writes them; a missing figure is a dash. */
function useFigures() {
  const { i18n } = useTranslation();
  const percent = new Intl.NumberFormat(i18n.language, { style: "percent", maximumFractionDigits: 1 });
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  const money = new Intl.NumberFormat(i18n.language, { style: "currency", currency: "USD", maximumFractionDigits: 4 });
  const p = new Intl.NumberFormat(i18n.language, { maximumSignificantDigits: 2 });
  const or = (value: number | null, format: (v: number) => string) => (value === null ? "—" : format(value));
  return {
    percent: (v: number | null) => or(v, (x) => percent.format(x)),
    seconds: (v: number | null) => or(v, (x) => `${number.format(x)} s`),
    ms: (v: number | null) => or(v, (x) => `${number.format(x)} ms`),
    money: (v: number | null) => or(v, (x) => money.format(x)),
    p: (v: number | null) => or(v, (x) => p.format(x)),
  };
}

/** An experiment's figures per variant: a bar chart of success rates, and the table that is its text. */
export function ExperimentResultsView({ assistantId, experiment }: { assistantId: string; experiment: Experiment }) {
  const { t } = useTranslation("assistants");
  const results = useExperimentResults(assistantId, experiment);
  if (results.isPending) return <ListSkeleton label={t("experiments.loadingResults")} rows={2} height={40} />;
  if (results.isError) {
    return (
      <RetryAlert
        error={results.error}
        fallback={t("experiments.resultsFailed")}
        retryLabel={t("versions.retry")}
        onRetry={() => void results.refetch()}
      />
    );
  }
  const variants = results.data.variants;
  if (variants.every((variant) => variant.calls === 0)) {
    return <Typography color="text.secondary">{t("experiments.noCalls")}</Typography>;
  }
  return (
    <>
      <SuccessChart variants={variants} />
      <ResultsTable variants={variants} />
    </>
  );
}

/**
 * Success rate per variant as horizontal bars (plain boxes, no chart library). It is hidden from
 * screen readers: the table below says the same in words.
 */
function SuccessChart({ variants }: { variants: readonly VariantResult[] }) {
  const { t } = useTranslation("assistants");
  const figures = useFigures();
  return (
    <Box aria-hidden sx={{ mb: 2 }} data-testid="success-chart">
      <Typography variant="caption" color="text.secondary">
        {t("experiments.chartTitle")}
      </Typography>
      {variants.map((variant) => (
        <Box
          key={variant.variant_id}
          sx={{ display: "grid", gridTemplateColumns: "4.5rem 1fr 3.5rem", gap: 1, alignItems: "center", mt: 0.5 }}
        >
          <Typography variant="body2">{t("versions.number", { number: variant.version })}</Typography>
          <Box sx={{ height: 14, borderRadius: 1, bgcolor: "action.hover", overflow: "hidden" }}>
            <Box
              sx={{
                height: "100%",
                width: `${Math.round((variant.success_rate ?? 0) * 100)}%`,
                bgcolor: "primary.main",
              }}
            />
          </Box>
          <Typography variant="body2" sx={{ textAlign: "end" }}>
            {figures.percent(variant.success_rate)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

function ResultsTable({ variants }: { variants: readonly VariantResult[] }) {
  const { t } = useTranslation("assistants");
  const figures = useFigures();
  const evidence = (variant: VariantResult) => {
    const reading = evidenceOf(variant.p_value);
    if (reading === null) return variant === variants[0] ? t("experiments.baseline") : t("experiments.tooFew");
    return (
      <Chip
        size="small"
        color={reading === "likely" ? "success" : "default"}
        variant={reading === "likely" ? "filled" : "outlined"}
        label={`${t(`experiments.evidence.${reading}`)} (p = ${figures.p(variant.p_value)})`}
      />
    );
  };
  const nowrap = { whiteSpace: "nowrap" } as const;
  // The table scrolls sideways inside its own box on a phone; the box takes focus so a keyboard can scroll it.
  return (
    <Box role="region" aria-label={t("experiments.resultsLabel")} tabIndex={0} sx={{ overflowX: "auto" }}>
      <DataTable
        label={t("experiments.resultsLabel")}
        size="small"
        container="none"
        rows={variants}
        rowKey={(variant) => variant.variant_id}
        columns={[
          {
            header: t("experiments.columns.version"),
            cell: (v) => `${t("versions.number", { number: v.version })} · ${v.percent}%`,
            sx: nowrap,
          },
          { header: t("experiments.columns.calls"), cell: (v) => v.calls, dir: "ltr" },
          { header: t("experiments.columns.judged"), cell: (v) => v.judged, dir: "ltr" },
          { header: t("experiments.columns.success"), cell: (v) => figures.percent(v.success_rate), sx: nowrap },
          {
            header: t("experiments.columns.duration"),
            cell: (v) => figures.seconds(v.avg_duration_seconds),
            sx: nowrap,
          },
          { header: t("experiments.columns.transfer"), cell: (v) => figures.percent(v.transfer_rate), sx: nowrap },
          { header: t("experiments.columns.cost"), cell: (v) => figures.money(v.cost_per_call), sx: nowrap },
          { header: t("experiments.columns.p50"), cell: (v) => figures.ms(v.p50_latency_ms), sx: nowrap },
          { header: t("experiments.columns.p95"), cell: (v) => figures.ms(v.p95_latency_ms), sx: nowrap },
          { header: t("experiments.columns.evidence"), cell: evidence, sx: { minWidth: 180 } },
        ]}
      />
    </Box>
  );
}
