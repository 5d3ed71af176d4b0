import CallOutlined from "@mui/icons-material/CallOutlined";
import GraphicEqOutlined from "@mui/icons-material/GraphicEqOutlined";
import SmartToyOutlined from "@mui/icons-material/SmartToyOutlined";
import TimerOutlined from "@mui/icons-material/TimerOutlined";
import Box from "@mui/material/Box";
import Card from "@mui/material/Card";
import CardContent from "@mui/material/CardContent";
import Grid from "@mui/material/Grid";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import type { CallStatsResponse } from "@parley/contract";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";

/** Read by screen readers, not shown (the dash says the same to sighted readers). */
const SCREEN_READER_ONLY = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;

interface Figure {
  key: "assistants" | "callsThisMonth" | "minutesThisMonth" | "activeCalls";
  icon: ReactElement;
  value: number | undefined;
  failed: boolean;
}

function FigureCard({ figure }: { figure: Figure }) {
  const { t, i18n } = useTranslation("home");
  const labelId = `figure-${figure.key}`;
  const format = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
  return (
    <Card
      component="section"
      aria-labelledby={labelId}
      aria-busy={figure.value === undefined && !figure.failed}
      sx={{ height: "100%" }}
    >
      <CardContent sx={{ display: "flex", gap: 2, alignItems: "center" }}>
        <Box
          aria-hidden
          sx={{
            display: "grid",
            placeItems: "center",
            width: 48,
            height: 48,
            borderRadius: 2,
            bgcolor: "action.hover",
          }}
        >
          {figure.icon}
        </Box>
        <div>
          <Typography id={labelId} component="h2" variant="body2" color="text.secondary">
            {t(`figures.${figure.key}`)}
          </Typography>
          {figure.value !== undefined ? (
            <Typography component="p" variant="h4" sx={{ fontWeight: 700 }} data-figure={figure.key}>
              {format.format(figure.value)}
            </Typography>
          ) : figure.failed ? (
            <Typography component="p" variant="h4" color="text.secondary">
              <span aria-hidden>—</span>
              <Box component="span" sx={SCREEN_READER_ONLY}>
                {t("figureUnavailable")}
              </Box>
            </Typography>
          ) : (
            <Skeleton variant="text" width={64} sx={{ fontSize: "2.125rem" }} />
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** The four headline figures; each shows a skeleton while loading and a dash when it failed. */
export function FigureCards(props: { assistants: UseQueryResult<number>; stats: UseQueryResult<CallStatsResponse> }) {
  const { assistants, stats } = props;
  const figures: Figure[] = [
    { key: "assistants", icon: <SmartToyOutlined />, value: assistants.data, failed: assistants.isError },
    { key: "callsThisMonth", icon: <CallOutlined />, value: stats.data?.calls_this_month, failed: stats.isError },
    { key: "minutesThisMonth", icon: <TimerOutlined />, value: stats.data?.minutes_this_month, failed: stats.isError },
    { key: "activeCalls", icon: <GraphicEqOutlined />, value: stats.data?.active_calls, failed: stats.isError },
  ];
  return (
    <Grid container spacing={3}>
      {figures.map((figure) => (
        <Grid key={figure.key} size={{ xs: 12, sm: 6, lg: 3 }}>
          <FigureCard figure={figure} />
        </Grid>
      ))}
    </Grid>
  );
}
