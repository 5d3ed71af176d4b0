import Box from "@mui/material/Box";
import { useTheme } from "@mui/material/styles";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";
import { visuallyHidden } from "../../../components/visually-hidden.ts";
import { useFormatters } from "./formatters.ts";

export interface DayPoint {
  day: string;
  minutes: number;
  cost: number;
  calls: number;
}

/** Every day of the month from its first to its end (exclusive), with the days that had calls filled in. */
export function daysOfPeriod(start: string, end: string, days: DayPoint[]): DayPoint[] {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const out: DayPoint[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t < Date.parse(`${end}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    out.push(byDay.get(day) ?? { day, minutes: 0, cost: 0, calls: 0 });
  }
  return out;
}

const HEIGHT = 160;
const BAR = 14;
const GAP = 6;

/**
 * Minutes per day as bars, drawn as SVG (no chart library for one small chart). Each bar has a
 * tooltip title, and the same figures are in a table for screen readers; right to left, the month
 * runs from the right.
 */
export function DailyChart({ start, end, days }: { start: string; end: string; days: DayPoint[] }) {
  const { t } = useTranslation(["billing", "translation"], { nsMode: "fallback" });
  const theme = useTheme();
  const f = useFormatters();
  const all = daysOfPeriod(start, end, days);
  const ordered = theme.direction === "rtl" ? [...all].reverse() : all;
  const peak = Math.max(1, ...all.map((d) => d.minutes));
  const width = ordered.length * (BAR + GAP);
  return (
    <Box>
      <Box sx={{ overflowX: "auto" }}>
        <svg
          width={width}
          height={HEIGHT + 20}
          viewBox={`0 0 ${width} ${HEIGHT + 20}`}
          aria-hidden="true"
          data-testid="daily-chart"
        >
          {ordered.map((d, i) => {
            const h = d.minutes > 0 ? Math.max(2, (d.minutes / peak) * HEIGHT) : 0;
            const x = i * (BAR + GAP);
            return (
              <g key={d.day}>
                <title>
                  {t("chart.bar", { day: f.day(d.day), minutes: f.minutes(d.minutes), cost: f.money(d.cost) })}
                </title>
                <rect x={x} y={HEIGHT - h} width={BAR} height={h} rx={2} fill={theme.palette.primary.main} />
                <rect x={x} y={HEIGHT} width={BAR} height={1} fill={theme.palette.divider} />
                {(Number(d.day.slice(8)) === 1 || Number(d.day.slice(8)) % 5 === 0) && (
                  <text
                    x={x + BAR / 2}
                    y={HEIGHT + 14}
                    fontSize={10}
                    textAnchor="middle"
                    fill={theme.palette.text.secondary}
                  >
                    {Number(d.day.slice(8))}
                  </text>
                )}
              </g>
            );
          })}
        </svg>
      </Box>
      <Box component="table" sx={visuallyHidden}>
        <caption>{t("chart.caption")}</caption>
        <thead>
          <tr>
            <th scope="col">{t("chart.day")}</th>
            <th scope="col">{t("minutes")}</th>
            <th scope="col">{t("cost")}</th>
          </tr>
        </thead>
        <tbody>
          {all
            .filter((d) => d.calls > 0)
            .map((d) => (
              <tr key={d.day}>
                <td>{f.day(d.day)}</td>
                <td>{f.minutes(d.minutes)}</td>
                <td>{f.money(d.cost)}</td>
              </tr>
            ))}
        </tbody>
      </Box>
      {all.every((d) => d.calls === 0) && (
        <Typography color="text.secondary" variant="body2">
          {t("chart.none")}
        </Typography>
      )}
    </Box>
  );
}
