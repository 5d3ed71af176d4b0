import Box from "@mui/material/Box";
import Stack from "@mui/material/Stack";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import type { TurnMetricsEntry } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { turnParts } from "../turn-parts.ts";

const PARTS = ["stt_ms", "end_of_turn_wait_ms", "llm_ttft_ms", "tts_ttfb_ms", "rest_ms"] as const;

/**
 * Latency per turn as stacked bars whose height is what the caller waited (voice-to-voice): the
 * transcript, the end-of-turn wait, the model's first token, the voice's first audio and the rest,
 * with the total over each bar and the end-of-turn rule that ended each turn listed below. Plain
 * SVG keeps charting libraries out of the bundle.
 */
export function LatencyChart({ turns }: { turns: TurnMetricsEntry[] }) {
  const { t } = useTranslation("call-logs");
  const theme = useTheme();
  const colors = [
    theme.palette.info.main,
    theme.palette.secondary.main,
    theme.palette.primary.main,
    theme.palette.warning.main,
    theme.palette.grey[500],
  ];
  const bars = turns.map(turnParts);
  const max = Math.max(1, ...bars.map((b) => b.total));
  const barWidth = 28;
  const gap = 14;
  const height = 160;
  const scale = (ms: number) => (ms / max) * (height - 16);
  const width = Math.max(240, turns.length * (barWidth + gap) + gap);
  const describe = (m: TurnMetricsEntry, total: number) => {
    const ms = Math.round(total);
    return m.end_of_turn_rule
      ? t("chart.turnRule", { turn: m.turn, ms, rule: t(`chart.rules.${m.end_of_turn_rule}`) })
      : t("chart.turnSummary", { turn: m.turn, ms });
  };
  const summary = turns.map((m, i) => describe(m, bars[i]?.total ?? 0)).join(", ");

  return (
    <Box>
      <Box sx={{ overflowX: "auto" }}>
        <svg width={width} height={height + 24} role="img" aria-label={t("chart.label", { summary })}>
          {turns.map((m, i) => {
            const bar = bars[i];
            if (!bar) return null;
            const x = gap + i * (barWidth + gap);
            let y = height;
            return (
              <g key={m.turn} data-turn={m.turn} data-total-ms={Math.round(bar.total)}>
                {PARTS.map((part, s) => {
                  const h = scale(bar[part]);
                  y -= h;
                  return (
                    <rect key={part} data-part={part} x={x} y={y} width={barWidth} height={h} fill={colors[s]} rx={2} />
                  );
                })}
                <text x={x + barWidth / 2} y={height + 16} textAnchor="middle" fontSize={11} fill="currentColor">
                  {m.turn}
                </text>
                <text
                  x={x + barWidth / 2}
                  y={Math.max(10, height - scale(bar.total) - 4)}
                  textAnchor="middle"
                  fontSize={10}
                  fill="currentColor"
                >
                  {Math.round(bar.total)}
                </text>
              </g>
            );
          })}
        </svg>
      </Box>
      <Stack direction="row" sx={{ flexWrap: "wrap", columnGap: 2, rowGap: 0.5 }}>
        {PARTS.map((part, s) => (
          <Stack key={part} direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
            <Box sx={{ width: 10, height: 10, bgcolor: colors[s], borderRadius: 0.5 }} />
            <Typography variant="caption">{t(`chart.${part}`)}</Typography>
          </Stack>
        ))}
      </Stack>
      <Box component="ul" aria-label={t("chart.rulesTitle")} sx={{ m: 0, mt: 1, pl: 0, listStyle: "none" }}>
        {turns.map((m, i) => (
          <Typography key={m.turn} component="li" variant="caption" sx={{ display: "block" }} data-turn={m.turn}>
            {describe(m, bars[i]?.total ?? 0)}
          </Typography>
        ))}
      </Box>
    </Box>
  );
}
