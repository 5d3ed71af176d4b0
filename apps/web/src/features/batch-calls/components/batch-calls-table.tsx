import ArchiveOutlined from "@mui/icons-material/ArchiveOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import PlayArrowOutlined from "@mui/icons-material/PlayArrowOutlined";
import StopOutlined from "@mui/icons-material/StopOutlined";
import UnarchiveOutlined from "@mui/icons-material/UnarchiveOutlined";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import {
  BATCH_CALLS_PAGE_SIZE,
  type BatchCallAction,
  type BatchCallPage,
  type BatchCallSummary,
  batchActionAllowed,
} from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { type Column, DataTable, type RowAction as TableAction } from "../../../components/data-table.tsx";
import { paths } from "../../../config/paths.ts";
import { BatchStatusChip } from "./batch-status-chip.tsx";
import { formatWhen } from "./format.ts";

export type SortKey = "name" | "status" | "scheduled_time" | "updatedAt";
export interface Sort {
  by: SortKey;
  order: "asc" | "desc";
}
export type RowAction = "edit" | "initiate" | "stop" | "archive" | "restore" | "delete";

const SORT_KEYS: readonly SortKey[] = ["name", "status", "scheduled_time", "updatedAt"];
export const isSortKey = (value: string): value is SortKey => SORT_KEYS.some((k) => k === value);

const ICONS: Record<RowAction, ReactNode> = {
  edit: <EditOutlined />,
  initiate: <PlayArrowOutlined />,
  stop: <StopOutlined />,
  archive: <ArchiveOutlined />,
  restore: <UnarchiveOutlined />,
  delete: <DeleteOutline />,
};

/** In the order they stand in a row; the contract's action for each (restore is archive undone). */
const ORDER: [RowAction, BatchCallAction][] = [
  ["edit", "edit"],
  ["initiate", "initiate"],
  ["stop", "stop"],
  ["archive", "archive"],
  ["restore", "archive"],
  ["delete", "delete"],
];

/** The actions a row's status allows (contract BATCH_CALL_ACTIONS); an archived one can only come back or go. */
function allowed(row: RowAction, action: BatchCallAction, batch: BatchCallSummary): boolean {
  if (batch.is_archived) return row === "restore" || row === "delete";
  return row !== "restore" && batchActionAllowed(action, batch.status);
}

/** A header clicked: the same column turns around; another starts with names A–Z and times newest first. */
export function nextSort(current: Sort, by: SortKey): Sort {
  if (current.by === by) return { by, order: current.order === "desc" ? "asc" : "desc" };
  return { by, order: by === "name" ? "asc" : "desc" };
}

/** One page of campaigns: sortable columns, progress at a glance, the actions each status allows. */
export function BatchCallsTable(props: {
  page: BatchCallPage;
  sort: Sort;
  onSort: (sort: Sort) => void;
  onPage: (page: number) => void;
  onAction: (action: RowAction, batch: BatchCallSummary) => void;
}) {
  const { t, i18n } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const columns: Column<BatchCallSummary>[] = [
    {
      header: t("columns.name"),
      sortKey: "name",
      cell: (batch) => (
        <Link component={RouterLink} to={`${paths.batchCalls}/${batch.id}`} sx={{ fontWeight: 600 }}>
          <span dir="auto">{batch.name}</span>
        </Link>
      ),
    },
    { header: t("columns.status"), sortKey: "status", cell: (batch) => <BatchStatusChip status={batch.status} /> },
    {
      header: t("columns.start"),
      sortKey: "scheduled_time",
      cell: (batch) =>
        batch.scheduled_time ? formatWhen(batch.scheduled_time, i18n.language, batch.timezone) : t("filters.immediate"),
    },
    {
      header: t("columns.progress"),
      cell: (batch) => (
        <Typography variant="body2">
          {t("progressShort", { dialled: batch.progress.dialled, total: batch.progress.total })}
        </Typography>
      ),
    },
    { header: t("columns.updated"), sortKey: "updatedAt", cell: (batch) => formatWhen(batch.updatedAt, i18n.language) },
  ];
  const actions: TableAction<BatchCallSummary>[] = ORDER.map(([row, action]) => ({
    id: row,
    icon: ICONS[row],
    label: (batch) => t(`rowActions.${row}`, { name: batch.name }),
    tooltip: (batch) => t(`rowActions.${row}`, { name: batch.name }),
    shown: (batch) => allowed(row, action, batch),
    onClick: (batch) => props.onAction(row, batch),
  }));
  return (
    <DataTable
      label={t("nav.batchCalls")}
      rows={props.page.data}
      columns={columns}
      actions={actions}
      sort={{ ...props.sort, onSort: (by) => isSortKey(by) && props.onSort(nextSort(props.sort, by)) }}
      pagination={{
        count: props.page.total_count,
        page: props.page.page,
        pageSize: BATCH_CALLS_PAGE_SIZE,
        onPage: props.onPage,
      }}
    />
  );
}
