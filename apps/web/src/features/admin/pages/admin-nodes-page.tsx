import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Paper from "@mui/material/Paper";
import type { ClusterNode } from "@parley/contract";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type Column, DataTable } from "../../../components/data-table.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useDates } from "../../../lib/dates-in-language.ts";
import { useAdminNodes } from "../api/admin-api.ts";
import { nodeAddress, nodeStatus, STATUS_COLOR, timeAgo } from "../components/node-status.ts";

/** Table cells keep their line: the table scrolls sideways instead of wrapping ids and times. */
const NOWRAP = { whiteSpace: "nowrap" } as const;

/** This browser's clock, moving every second, so "5 seconds ago" counts up between refreshes. */
function useNow(): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The server processes (nodes) serving this database, as their heartbeats describe them: whether
 * each takes calls, the calls it runs, its version and address. Read again every 5 s while open.
 */
export default function AdminNodesPage() {
  const { t, i18n } = useTranslation(["admin", "translation"], { nsMode: "fallback" });
  const dates = useDates();
  const now = useNow();
  const nodes = useAdminNodes();

  const columns: Column<ClusterNode>[] = [
    { header: t("nodes.id"), cell: (node) => node.id, dir: "ltr", sx: { ...NOWRAP, fontWeight: 600 } },
    {
      header: t("nodes.state"),
      cell: (node) => {
        const status = nodeStatus(node);
        return <Chip size="small" color={STATUS_COLOR[status]} label={t(`nodes.status.${status}`)} />;
      },
      sx: NOWRAP,
    },
    { header: t("nodes.calls"), cell: (node) => node.active_calls.toLocaleString(i18n.language), sx: NOWRAP },
    { header: t("nodes.version"), cell: (node) => node.version, dir: "ltr", sx: NOWRAP },
    { header: t("nodes.address"), cell: nodeAddress, dir: "ltr", sx: NOWRAP },
    { header: t("nodes.sipPort"), cell: (node) => node.sip_port ?? t("nodes.noSip"), dir: "ltr", sx: NOWRAP },
    { header: t("nodes.started"), cell: (node) => dates.moment(node.started_at), sx: NOWRAP },
    {
      header: t("nodes.heartbeat"),
      cell: (node) => (
        <Box component="time" dateTime={node.heartbeat_at} title={dates.moment(node.heartbeat_at)}>
          {timeAgo(node.heartbeat_at, now, i18n.language)}
        </Box>
      ),
      sx: NOWRAP,
    },
  ];

  return (
    <>
      <PageHeader title={t("nav.adminNodes")} subtitle={t("nodes.subtitle")} />
      {nodes.isPending && <CircularProgress aria-label={t("common.loading")} />}
      {nodes.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {nodes.data ? t("nodes.refreshFailed") : errorText(nodes.error, t("common.failed"))}
        </Alert>
      )}
      {nodes.data?.length === 0 && <EmptyState title={t("nodes.none")} hint={t("nodes.noneHint")} />}
      {nodes.data && nodes.data.length > 0 && (
        // Wider than a phone: the table scrolls inside its own box, which the keyboard can reach.
        <Paper role="region" aria-label={t("nodes.table")} tabIndex={0} sx={{ overflowX: "auto", maxWidth: "100%" }}>
          <DataTable label={t("nodes.table")} rows={nodes.data} columns={columns} container="none" />
        </Paper>
      )}
    </>
  );
}
