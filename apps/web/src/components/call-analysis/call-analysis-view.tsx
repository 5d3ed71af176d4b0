import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { CallAnalysis, SuccessEvaluation } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="h4" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Verdict({ success }: { success: SuccessEvaluation }) {
  const { t } = useTranslation("call-analysis");
  const verdict =
    success.scale === "numeric_1_10"
      ? t("view.score", { score: success.verdict })
      : t(`view.verdict.${success.verdict}`);
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ mb: 0.5, flexWrap: "wrap", rowGap: 1 }}>
        <Chip
          size="small"
          label={verdict}
          color={success.passed ? "success" : "error"}
          data-testid="analysis-verdict"
        />
        <Chip size="small" variant="outlined" label={success.passed ? t("view.passed") : t("view.notPassed")} />
      </Stack>
      <Typography variant="body2" dir="auto">
        {success.reason}
      </Typography>
    </>
  );
}

/** A value of the extracted data: text as is, anything else (numbers, lists, objects) as JSON. */
const shown = (value: unknown, empty: string) =>
  value === null || value === undefined ? empty : typeof value === "string" ? value : JSON.stringify(value);

function ExtractedData({ data }: { data: Record<string, unknown> }) {
  const { t } = useTranslation("call-analysis");
  return (
    <Box
      component="dl"
      data-testid="analysis-data"
      sx={{ display: "grid", gridTemplateColumns: "minmax(96px, max-content) 1fr", columnGap: 2, rowGap: 0.5, m: 0 }}
    >
      {Object.entries(data).map(([key, value]) => (
        <Box key={key} sx={{ display: "contents" }}>
          <Typography component="dt" variant="body2" color="text.secondary" dir="ltr" sx={{ fontFamily: "monospace" }}>
            {key}
          </Typography>
          <Typography component="dd" variant="body2" dir="auto" sx={{ m: 0, overflowWrap: "anywhere" }}>
            {shown(value, t("view.noValue"))}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}

/** A call's post-call analysis: pending, or its summary, success verdict and extracted data (and why it failed). */
export function CallAnalysisView({ analysis }: { analysis: CallAnalysis }) {
  const { t } = useTranslation("call-analysis");
  if (analysis.status === "pending") {
    return (
      <Stack direction="row" spacing={1} role="status" sx={{ alignItems: "center" }}>
        <CircularProgress size={16} aria-hidden />
        <Typography variant="body2" color="text.secondary">
          {t("view.pending")}
        </Typography>
      </Stack>
    );
  }
  return (
    <div data-testid="call-analysis">
      {analysis.status === "failed" && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <strong>{t("view.failed")}</strong>
          {analysis.error && (
            <Typography variant="body2" dir="auto">
              {analysis.error}
            </Typography>
          )}
        </Alert>
      )}
      {analysis.summary !== null && (
        <Part title={t("view.summary")}>
          <Typography variant="body2" dir="auto" data-testid="analysis-summary" sx={{ whiteSpace: "pre-wrap" }}>
            {analysis.summary}
          </Typography>
        </Part>
      )}
      {analysis.success && (
        <Part title={t("view.success")}>
          <Verdict success={analysis.success} />
        </Part>
      )}
      {analysis.structured_data && (
        <Part title={t("view.data")}>
          <ExtractedData data={analysis.structured_data} />
        </Part>
      )}
      {analysis.completed_at && (
        <Typography variant="caption" color="text.secondary">
          {t("view.completed", { when: new Date(analysis.completed_at).toLocaleString() })}
        </Typography>
      )}
    </div>
  );
}
