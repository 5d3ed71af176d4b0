import CheckCircleOutline from "@mui/icons-material/CheckCircleOutline";
import ErrorOutline from "@mui/icons-material/ErrorOutline";
import HighlightOff from "@mui/icons-material/HighlightOff";
import RemoveCircleOutline from "@mui/icons-material/RemoveCircleOutline";
import ScheduleOutlined from "@mui/icons-material/ScheduleOutlined";
import SyncProblemOutlined from "@mui/icons-material/SyncProblemOutlined";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import type { ReactElement } from "react";
import { useTranslation } from "react-i18next";
import { type OutcomeStatus, outcomeColour } from "./outcome.ts";

const ICONS: Record<OutcomeStatus, ReactElement | null> = {
  queued: <ScheduleOutlined />,
  pending: <ScheduleOutlined />,
  running: null,
  passed: <CheckCircleOutline />,
  failed: <HighlightOff />,
  flaky: <SyncProblemOutlined />,
  error: <ErrorOutline />,
  cancelled: <RemoveCircleOutline />,
};

/** A run's, case's or call's status: its word, an icon and a colour; a running one spins. */
export function OutcomeChip({ status, suffix }: { status: OutcomeStatus; suffix?: string | null }) {
  const { t } = useTranslation("test-suites");
  const label = t(`status.${status}`);
  return (
    <Chip
      size="small"
      variant="outlined"
      color={outcomeColour(status)}
      data-status={status}
      icon={ICONS[status] ?? <CircularProgress size={14} color="inherit" aria-hidden />}
      label={suffix ? `${label} ${suffix}` : label}
    />
  );
}
