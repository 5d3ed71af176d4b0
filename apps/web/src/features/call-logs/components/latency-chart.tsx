import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import type { TurnMetricsEntry } from "@parley/contract";
import { useTranslation } from "react-i18next";

const STAGES = ["stt_ms", "llm_ttft_ms", "tts_ttfb_ms"] as const;

/**
 * Latency per turn as stacked bars: transcript wait, model first token and voice first byte, with
 * voice-to-voice as the bar's total label. Plain SVG keeps charting libraries out of the bundle.
 */
export function LatencyChart({ turns }: { turns: TurnMetricsEntry[] }) {
  const { t } = useTranslation("call-logs");
  const theme = useTheme();
  const colors = [theme.palette.info.main, theme.palette.primary.main, theme.palette.warning.main];
  const totals = turns.map((m) => m.voice_to_voice_ms ?? STAGES.reduce((sum, s) => sum + (m[s] ?? 0), 0));
  const max = Math.max(1, ...totals);
  const barWidth = 28;
  const gap = 14;
  const height = 160;
  const width = Math.max(240, turns.length * (barWidth + gap) + gap);
  const summary = turns
    .map((m, i) => t("chart.turnSummary", { turn: m.turn, ms: Math.round(totals[i] ?? 0) }))
    .join(", ");

  return (
    <Box>
      <Box sx={{ overflowX: "auto" }}>
        <svg width={width} height={height + 24} role="img" aria-label={t("chart.label", { summary })}>
          {turns.map((m, i) => {
            const x = gap + i * (barWidth + gap);
            let y = height;
            return (
              <g key={m.turn}>
                {STAGES.map((stage, s) => {
                  const h = ((m[stage] ?? 0) / max) * (height - 16);
                  y -= h;
                  return <rect key={stage} x={x} y={y} width={barWidth} height={h} fill={colors[s]} rx={2} />;
                })}
                <text x={x + barWidth / 2} y={height + 16} textAnchor="middle" fontSize={11} fill="currentColor">
                  {m.turn}
                </text>
                <text
                  x={x + barWidth / 2}
                  y={Math.max(10, height - ((totals[i] ?? 0) / max) * (height - 16) - 4)}
                  textAnchor="middle"
                  fontSize={10}
                  fill="currentColor"
                >
                  {Math.round(totals[i] ?? 0)}
                </text>
              </g>
            );
          })}
        </svg>
      </Box>
      <Stack direction="row" spacing={2} sx={{ flexWrap: "wrap" }}>
        {STAGES.map((stage, s) => (
          <Stack key={stage} direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
            <Box sx={{ width: 10, height: 10, bgcolor: colors[s], borderRadius: 0.5 }} />
            <Typography variant="caption">{t(`chart.${stage}`)}</Typography>
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
