import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import type { SxProps, Theme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow, { type TableRowProps } from "@mui/material/TableRow";
import TableSortLabel from "@mui/material/TableSortLabel";
import Tooltip from "@mui/material/Tooltip";
import type { MouseEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  sx?: SxProps<Theme>;
  /** The cell's text direction: "ltr" for numbers and addresses, "auto" for names people type. */
  dir?: "ltr" | "auto";
  /** The list can be sorted by this column (see `sort`). */
  sortKey?: string;
}

/** An icon button at the end of each row; its label names the row (screen readers read it alone). */
export interface RowAction<T> {
  id: string;
  icon: ReactNode;
  label: (row: T) => string;
  /** Shown on hover; without it the button has no tooltip. */
  tooltip?: (row: T) => string;
  onClick: (row: T, event: MouseEvent<HTMLElement>) => void;
  disabled?: boolean;
  /** Whether the row offers it (what its state allows); by default every row does. */
  shown?: (row: T) => boolean;
}

export interface Sort {
  by: string;
  order: "asc" | "desc";
}

/** One page of a longer list: `page` counts from 1. */
export interface Pagination {
  count: number;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}

export interface DataTableProps<T> {
  /** The table's accessible name. */
  label: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  /** With actions (even none for this viewer) the table ends with an "Actions" column. */
  actions?: readonly RowAction<T>[];
  size?: "small" | "medium";
  /** "paper" (a card of its own), "plain" (inside a card already) or "none" (no scrolling container). */
  container?: "paper" | "plain" | "none";
  pagination?: Pagination;
  sort?: Sort & { onSort: (by: string) => void };
  rowProps?: (row: T) => TableRowProps;
  /** React's key of a row; by default its `id`. */
  rowKey?: (row: T) => string | number;
  /** Rows before the data (a loading or "nothing found" row that keeps the headers in view). */
  leadingRows?: ReactNode;
}

const idOf = (row: unknown) => (typeof row === "object" && row !== null && "id" in row ? String(row.id) : "");

/** Rows of a list under their column headers, with each row's actions and the list's pages. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const keyOf = props.rowKey ?? idOf;
  const table = (
    <Table aria-label={props.label} size={props.size}>
      <TableHead>
        <TableRow>
          {props.columns.map((column) => (
            <HeaderCell key={column.header} column={column} sort={props.sort} />
          ))}
          {props.actions && <TableCell align="right">{t("common.actions")}</TableCell>}
        </TableRow>
      </TableHead>
      <TableBody>
        {props.leadingRows}
        {props.rows.map((row) => (
          <TableRow key={keyOf(row)} {...props.rowProps?.(row)}>
            {props.columns.map((column) => (
              <TableCell key={column.header} sx={column.sx} dir={column.dir}>
                {column.cell(row)}
              </TableCell>
            ))}
            {props.actions && <ActionsCell row={row} actions={props.actions} />}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
  const pages = props.pagination && (
    <TablePagination
      component="div"
      count={props.pagination.count}
      page={props.pagination.page - 1}
      rowsPerPage={props.pagination.pageSize}
      rowsPerPageOptions={[props.pagination.pageSize]}
      onPageChange={(_event, page) => props.pagination?.onPage(page + 1)}
    />
  );
  if (props.container === "none") {
    return (
      <>
        {table}
        {pages}
      </>
    );
  }
  return (
    <TableContainer component={props.container === "plain" ? "div" : Paper}>
      {table}
      {pages}
    </TableContainer>
  );
}

function HeaderCell<T>({ column, sort }: { column: Column<T>; sort: DataTableProps<T>["sort"] }) {
  if (!column.sortKey || !sort) return <TableCell>{column.header}</TableCell>;
  const active = sort.by === column.sortKey;
  const key = column.sortKey;
  return (
    <TableCell sortDirection={active ? sort.order : false}>
      <TableSortLabel active={active} direction={active ? sort.order : "asc"} onClick={() => sort.onSort(key)}>
        {column.header}
      </TableSortLabel>
    </TableCell>
  );
}

function ActionsCell<T>({ row, actions }: { row: T; actions: readonly RowAction<T>[] }) {
  return (
    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
      {actions.map((action) => {
        if (action.shown && !action.shown(row)) return null;
        const button = (
          <IconButton
            key={action.id}
            aria-label={action.label(row)}
            onClick={(event) => action.onClick(row, event)}
            disabled={action.disabled}
          >
            {action.icon}
          </IconButton>
        );
        return action.tooltip ? (
          <Tooltip key={action.id} title={action.tooltip(row)}>
            {button}
          </Tooltip>
        ) : (
          button
        );
      })}
    </TableCell>
  );
}
