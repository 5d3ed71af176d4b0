import LinearProgress from "@mui/material/LinearProgress";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { BatchCall } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { percent } from "./format.ts";

const FIGURES = ["total", "dialled", "answered", "failed", "in_progress", "pending", "do_not_call"] as const;

/** Live progress: every contact counted once by its state; the bar is the share already final. */
export function ProgressCard({ batch }: { batch: BatchCall }) {
  const { t } = useTranslation("batch-calls");
  const p = batch.progress;
  const done = p.answered + p.failed + p.do_not_call + p.cancelled;
  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 2 }} role="region" aria-label={t("detail.progress")}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t("detail.progress")}
      </Typography>
      <LinearProgress
        variant="determinate"
        value={percent(done, p.total)}
        aria-label={t("detail.finishedShare", { percent: percent(done, p.total) })}
        sx={{ height: 8, borderRadius: 4, mb: 2 }}
      />
      <Stack direction="row" sx={{ flexWrap: "wrap", gap: 3 }} component="dl">
        {FIGURES.map((key) => (
          <div key={key}>
            <Typography component="dt" variant="body2" color="text.secondary">
              {t(`figures.${key}`)}
            </Typography>
            <Typography component="dd" variant="h6" sx={{ m: 0 }} data-figure={key}>
              {p[key]}
            </Typography>
          </div>
        ))}
      </Stack>
      {batch.pause_reason === "spend_cap" && (
        <Typography color="warning.main" sx={{ mt: 1 }}>
          {t("detail.pausedSpendCap")}
        </Typography>
      )}
    </Paper>
  );
}
