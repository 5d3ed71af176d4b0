import Chip from "@mui/material/Chip";
import type { BatchCallStatus, BatchContactStatus } from "@parley/contract";
import { useTranslation } from "react-i18next";

type Colour = "default" | "info" | "primary" | "success" | "warning" | "error";

const CAMPAIGN: Record<BatchCallStatus, Colour> = {
  created: "default",
  scheduled: "info",
  pending: "info",
  running: "primary",
  completed: "success",
  partial: "warning",
  failed: "error",
  cancelled: "default",
};

const CONTACT: Record<BatchContactStatus, Colour> = {
  pending: "default",
  dialing: "primary",
  answered: "success",
  "no-answer": "warning",
  busy: "warning",
  failed: "error",
  voicemail: "warning",
  "do-not-call": "default",
  cancelled: "default",
};

/** A campaign's status in words and colour (the words carry the meaning; the colour only helps). */
export function BatchStatusChip({ status }: { status: BatchCallStatus }) {
  const { t } = useTranslation("batch-calls");
  return <Chip size="small" variant="outlined" color={CAMPAIGN[status]} label={t(`status.${status}`)} />;
}

export function ContactStatusChip({ status }: { status: BatchContactStatus }) {
  const { t } = useTranslation("batch-calls");
  return <Chip size="small" variant="outlined" color={CONTACT[status]} label={t(`contactStatus.${status}`)} />;
}
