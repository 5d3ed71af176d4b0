import Box from "@mui/material/Box";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import type { CallSegment } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { formatMoney, formatOffset } from "../format.ts";

/**
 * A squad's call stretch by stretch (issue 31): which assistant spoke from when to when, why the
 * call came to it (the hand-off's reason), what that stretch cost and its median latency.
 */
export function CallSegments({ segments }: { segments: CallSegment[] }) {
  const { t } = useTranslation("call-logs");
  return (
    // Scrolls sideways on a narrow screen, so it can take the keyboard's focus to be scrolled.
    <Box sx={{ overflowX: "auto" }} tabIndex={0} role="region" aria-label={t("segments.title")}>
      <Table size="small" aria-label={t("segments.label")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("segments.assistant")}</TableCell>
            <TableCell>{t("segments.when")}</TableCell>
            <TableCell>{t("segments.reason")}</TableCell>
            <TableCell align="right">{t("segments.cost")}</TableCell>
            <TableCell align="right">{t("segments.latency")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {segments.map((segment) => (
            <TableRow key={segment.started_at_ms}>
              <TableCell dir="auto">
                {segment.agent_name}
                {segment.member && " "}
                {segment.member && (
                  <Box component="span" dir="ltr" sx={{ color: "text.secondary" }}>
                    ({segment.member})
                  </Box>
                )}
              </TableCell>
              <TableCell sx={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap" }}>
                <span dir="ltr">
                  {formatOffset(segment.started_at_ms)}–
                  {segment.ended_at_ms === null ? "" : formatOffset(segment.ended_at_ms)}
                </span>
              </TableCell>
              <TableCell dir="auto">
                {segment.reason === null
                  ? t("segments.first")
                  : t("segments.handedBy", { from: segment.from_member ?? "—", reason: segment.reason || "—" })}
              </TableCell>
              <TableCell align="right">{formatMoney(segment.cost)}</TableCell>
              <TableCell align="right">
                {segment.latency_p50_ms === null
                  ? "—"
                  : t("segments.ms", { ms: Math.round(segment.latency_p50_ms), turns: segment.turns })}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}
