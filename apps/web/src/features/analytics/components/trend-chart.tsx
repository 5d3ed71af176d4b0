import Box from "@mui/material/Box";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import useMediaQuery from "@mui/material/useMediaQuery";
import type { AnalyticsMetric, AnalyticsResult } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useMetricFormat } from "./metric-format.ts";

/** The drawing's size in its own units; a phone gets a narrower one, so its labels stay readable. */
const WIDE = 720;
const NARROW = 360;
const HEIGHT = 220;
const PAD = { top: 12, bottom: 28, side: 48 };
/** At most this many lines: the largest groups; the table lists every group. */
const MAX_SERIES = 5;

interface Series {
  name: string;
  points: (number | null)[];
}

/** One line per group (or one for all calls), over the buckets in order. */
function seriesOf(
  result: AnalyticsResult,
  metric: AnalyticsMetric,
  buckets: string[],
  nameOf: (row: AnalyticsResult["rows"][number]) => string,
): Series[] {
  const groups = new Map<string, Series>();
  for (const row of result.rows) {
    const name = nameOf(row);
    const series = groups.get(name) ?? { name, points: buckets.map(() => null) };
    const at = buckets.indexOf(row.bucket ?? "");
    if (at >= 0) series.points[at] = row.values[metric] ?? null;
    groups.set(name, series);
  }
  const total = (s: Series) => s.points.reduce<number>((sum, p) => sum + (p ?? 0), 0);
  return [...groups.values()].sort((a, b) => total(b) - total(a)).slice(0, MAX_SERIES);
}

/**
 * The chosen metric over time as lines, drawn as SVG (no chart library: a few lines need none, and
 * the page stays light). The chart is a picture for sighted readers; the table under it holds the
 * same numbers for everyone. Right to left, time runs from the right.
 */
export function TrendChart({ result, metric }: { result: AnalyticsResult; metric: AnalyticsMetric }) {
  const { t } = useTranslation("analytics");
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down("sm"));
  const WIDTH = narrow ? NARROW : WIDE;
  const f = useMetricFormat();
  const buckets = [...new Set(result.rows.map((r) => r.bucket ?? ""))].sort();
  const dims = result.group_by;
  const series = seriesOf(result, metric, buckets, (row) => dims.map((d) => f.keyLabel(d, row.keys[d])).join(" · "));
  const values = series.flatMap((s) => s.points.filter((p): p is number => p !== null));
  if (buckets.length === 0 || values.length === 0)
    return (
      <Typography color="text.secondary" variant="body2" sx={{ py: 4, textAlign: "center" }}>
        {t("chart.empty")}
      </Typography>
    );
  const peak = Math.max(...values, 0) || 1;
  const rtl = theme.direction === "rtl";
  const plotWidth = WIDTH - PAD.side * 2;
  const x = (i: number) => {
    const share = buckets.length === 1 ? 0.5 : i / (buckets.length - 1);
    return PAD.side + (rtl ? 1 - share : share) * plotWidth;
  };
  const y = (v: number) => PAD.top + (1 - v / peak) * (HEIGHT - PAD.top - PAD.bottom);
  const colors = [
    theme.palette.primary.main,
    theme.palette.secondary.main,
    theme.palette.success.main,
    theme.palette.warning.main,
    theme.palette.info.main,
  ];
  const every = Math.max(1, Math.ceil(buckets.length / (narrow ? 4 : 8)));
  return (
    <Box>
      <Box
        component="svg"
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        aria-hidden="true"
        data-testid="trend-chart"
        sx={{ width: "100%", height: "auto", display: "block" }}
      >
        <line x1={PAD.side} x2={WIDTH - PAD.side} y1={y(0)} y2={y(0)} stroke={theme.palette.divider} />
        <text
          x={rtl ? WIDTH - PAD.side + 4 : PAD.side - 4}
          y={y(peak) + 4}
          fontSize={11}
          textAnchor={rtl ? "start" : "end"}
          fill={theme.palette.text.secondary}
        >
          {f.value(metric, peak)}
        </text>
        {buckets.map((b, i) =>
          i % every === 0 ? (
            <text key={b} x={x(i)} y={HEIGHT - 8} fontSize={11} textAnchor="middle" fill={theme.palette.text.secondary}>
              {f.day(b)}
            </text>
          ) : null,
        )}
        {series.map((s, n) => {
          const color = colors[n % colors.length];
          const points = s.points.map((p, i) => (p === null ? null : `${x(i)},${y(p)}`)).filter(Boolean);
          return (
            <g key={s.name || "all"}>
              <polyline points={points.join(" ")} fill="none" stroke={color} strokeWidth={2} />
              {s.points.map((p, i) =>
                p === null ? null : (
                  <circle key={buckets[i]} cx={x(i)} cy={y(p)} r={3} fill={color}>
                    <title>{`${s.name ? `${s.name} · ` : ""}${f.day(buckets[i] ?? "")}: ${f.value(metric, p)}`}</title>
                  </circle>
                ),
              )}
            </g>
          );
        })}
      </Box>
      {series.length > 1 && (
        <Box sx={{ display: "flex", flexWrap: "wrap", gap: 2, mt: 1 }} aria-hidden="true">
          {series.map((s, n) => (
            <Box key={s.name} sx={{ display: "flex", alignItems: "center", gap: 0.5, fontSize: 13 }}>
              <Box sx={{ width: 12, height: 12, borderRadius: "2px", bgcolor: colors[n % colors.length] }} />
              {s.name}
            </Box>
          ))}
        </Box>
      )}
    </Box>
  );
}
