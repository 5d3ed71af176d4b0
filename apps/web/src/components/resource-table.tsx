import Alert from "@mui/material/Alert";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import type { SxProps, Theme } from "@mui/material/styles";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "./error-text.ts";
import { ListSkeleton } from "./list-placeholders.tsx";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  sx?: SxProps<Theme>;
}

/** An icon button at the end of each row; its label names the row (screen readers read it alone). */
export interface RowAction<T> {
  id: string;
  icon: ReactNode;
  label: (row: T) => string;
  /** Shown on hover; without it the button has no tooltip. */
  tooltip?: (row: T) => string;
  onClick: (row: T) => void;
}

/**
 * A workspace resource as a table: grey rows while it loads, the failure, what an empty list says,
 * then one row per item with its actions.
 */
export function ResourceTable<T extends { id: string }>(props: {
  /** The table's accessible name. */
  label: string;
  query: { data: readonly T[] | undefined; isPending: boolean; error: unknown };
  empty: ReactNode;
  columns: readonly Column<T>[];
  actions: readonly RowAction<T>[];
  loadingRows?: number;
  /** Inside a card already: no paper of its own. */
  plain?: boolean;
}) {
  const { t } = useTranslation();
  const { data, isPending, error } = props.query;
  if (isPending) return <ListSkeleton label={t("common.loading")} rows={props.loadingRows} />;
  if (error) return <Alert severity="error">{errorText(error, t("common.failed"))}</Alert>;
  if (!data?.length) return props.empty;
  return (
    <TableContainer component={props.plain ? "div" : Paper}>
      <Table aria-label={props.label}>
        <TableHead>
          <TableRow>
            {props.columns.map((column) => (
              <TableCell key={column.header}>{column.header}</TableCell>
            ))}
            <TableCell align="right">{t("common.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.map((row) => (
            <TableRow key={row.id}>
              {props.columns.map((column) => (
                <TableCell key={column.header} sx={column.sx}>
                  {column.cell(row)}
                </TableCell>
              ))}
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {props.actions.map((action) => {
                  const button = (
                    <IconButton key={action.id} aria-label={action.label(row)} onClick={() => action.onClick(row)}>
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
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
