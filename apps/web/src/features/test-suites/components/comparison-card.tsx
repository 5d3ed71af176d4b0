import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { TestRunComparison } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { deltaTone, formatCost, formatDelta, formatMs, isolated } from "./outcome.ts";

/** This run against the suite's previous finished one: cases that changed, and how latency and cost moved. */
export function ComparisonCard(props: { comparison: TestRunComparison; previousPath: string }) {
  const { t } = useTranslation("test-suites");
  const { comparison } = props;
  const latency = formatDelta(comparison.latency_p95_delta_ms, formatMs);
  const latencyText = latency === null ? t("comparison.unknown") : isolated(latency);
  const cost = formatDelta(comparison.cost_per_call_delta, formatCost);
  const costText = cost === null ? t("comparison.unknown") : isolated(cost);
  const names = (cases: TestRunComparison["newly_failing"]) => cases.map((c) => c.case_name).join(", ");
  return (
    <Paper variant="outlined" component="section" aria-labelledby="comparison-heading" sx={{ p: 2 }}>
      <Typography id="comparison-heading" variant="h6" component="h2" sx={{ mb: 1 }}>
        {t("comparison.heading")}
      </Typography>
      <Stack spacing={0.5}>
        <Typography variant="body2" color={comparison.newly_failing.length > 0 ? "error" : "text.secondary"} dir="auto">
          {comparison.newly_failing.length > 0
            ? t("comparison.newlyFailing", { names: names(comparison.newly_failing) })
            : t("comparison.noneFailing")}
        </Typography>
        <Typography
          variant="body2"
          color={comparison.newly_passing.length > 0 ? "success.main" : "text.secondary"}
          dir="auto"
        >
          {comparison.newly_passing.length > 0
            ? t("comparison.newlyPassing", { names: names(comparison.newly_passing) })
            : t("comparison.nonePassing")}
        </Typography>
        <Typography variant="body2" color={deltaTone(comparison.latency_p95_delta_ms)}>
          {t("comparison.latency", { delta: latencyText })}
        </Typography>
        <Typography variant="body2" color={deltaTone(comparison.cost_per_call_delta)}>
          {t("comparison.cost", { delta: costText })}
        </Typography>
        <Link component={RouterLink} to={props.previousPath} variant="body2">
          {t("comparison.open")}
        </Link>
      </Stack>
    </Paper>
  );
}
