import ArchiveOutlined from "@mui/icons-material/ArchiveOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import PlayArrowOutlined from "@mui/icons-material/PlayArrowOutlined";
import StopOutlined from "@mui/icons-material/StopOutlined";
import UnarchiveOutlined from "@mui/icons-material/UnarchiveOutlined";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Tooltip from "@mui/material/Tooltip";
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
import { paths } from "../../../config/paths.ts";
import { BatchStatusChip } from "./batch-status-chip.tsx";
import { formatWhen } from "./format.ts";

export type SortKey = "name" | "status" | "scheduled_time" | "updatedAt";
export interface Sort {
  by: SortKey;
  order: "asc" | "desc";
}
export type RowAction = "edit" | "initiate" | "stop" | "archive" | "restore" | "delete";

const ICONS: Record<RowAction, ReactNode> = {
  edit: <EditOutlined />,
  initiate: <PlayArrowOutlined />,
  stop: <StopOutlined />,
  archive: <ArchiveOutlined />,
  restore: <UnarchiveOutlined />,
  delete: <DeleteOutline />,
};

/** The row's actions its status allows (contract BATCH_CALL_ACTIONS); an archived one can only come back or go. */
function actionsFor(batch: BatchCallSummary): RowAction[] {
  if (batch.is_archived) return ["restore", "delete"];
  const order: [RowAction, BatchCallAction][] = [
    ["edit", "edit"],
    ["initiate", "initiate"],
    ["stop", "stop"],
    ["archive", "archive"],
    ["delete", "delete"],
  ];
  return order.filter(([, action]) => batchActionAllowed(action, batch.status)).map(([row]) => row);
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
  const header = (key: SortKey, label: string) => (
    <TableCell sortDirection={props.sort.by === key ? props.sort.order : false}>
      <TableSortLabel
        active={props.sort.by === key}
        direction={props.sort.by === key ? props.sort.order : "asc"}
        onClick={() => props.onSort(nextSort(props.sort, key))}
      >
        {label}
      </TableSortLabel>
    </TableCell>
  );
  return (
    <TableContainer component={Paper}>
      <Table aria-label={t("nav.batchCalls")}>
        <TableHead>
          <TableRow>
            {header("name", t("columns.name"))}
            {header("status", t("columns.status"))}
            {header("scheduled_time", t("columns.start"))}
            <TableCell>{t("columns.progress")}</TableCell>
            {header("updatedAt", t("columns.updated"))}
            <TableCell align="right">{t("common.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.page.data.map((batch) => (
            <TableRow key={batch.id}>
              <TableCell>
                <Link component={RouterLink} to={`${paths.batchCalls}/${batch.id}`} sx={{ fontWeight: 600 }}>
                  <span dir="auto">{batch.name}</span>
                </Link>
              </TableCell>
              <TableCell>
                <BatchStatusChip status={batch.status} />
              </TableCell>
              <TableCell>
                {batch.scheduled_time
                  ? formatWhen(batch.scheduled_time, i18n.language, batch.timezone)
                  : t("filters.immediate")}
              </TableCell>
              <TableCell>
                <Typography variant="body2">
                  {t("progressShort", { dialled: batch.progress.dialled, total: batch.progress.total })}
                </Typography>
              </TableCell>
              <TableCell>{formatWhen(batch.updatedAt, i18n.language)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {actionsFor(batch).map((action) => {
                  const label = t(`rowActions.${action}`, { name: batch.name });
                  return (
                    <Tooltip key={action} title={label}>
                      <IconButton aria-label={label} onClick={() => props.onAction(action, batch)}>
                        {ICONS[action]}
                      </IconButton>
                    </Tooltip>
                  );
                })}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <TablePagination
        component="div"
        count={props.page.total_count}
        page={props.page.page - 1}
        rowsPerPage={BATCH_CALLS_PAGE_SIZE}
        rowsPerPageOptions={[BATCH_CALLS_PAGE_SIZE]}
        onPageChange={(_, p) => props.onPage(p + 1)}
      />
    </TableContainer>
  );
}
