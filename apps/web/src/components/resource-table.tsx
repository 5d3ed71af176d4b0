import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Alert from "@mui/material/Alert";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { type Column, DataTable, type DataTableProps, type RowAction } from "./data-table.tsx";
import { errorText } from "./error-text.ts";
import { ListSkeleton } from "./list-placeholders.tsx";

export type { Column, RowAction };

/** What a resource list reads from its query. */
export interface ListQuery<T> {
  data: readonly T[] | undefined;
  isPending: boolean;
  error: unknown;
}

/**
 * A workspace resource as a table: grey rows while it loads, the failure, what an empty list says,
 * then one row per item with its actions.
 */
export function ResourceTable<T extends { id: string }>(
  props: Omit<DataTableProps<T>, "rows" | "container" | "actions"> & {
    query: ListQuery<T>;
    empty: ReactNode;
    actions: readonly RowAction<T>[];
    loadingRows?: number;
    /** Inside a card already: no paper of its own. */
    plain?: boolean;
  },
) {
  const { t } = useTranslation();
  const { query, empty, loadingRows, plain, ...table } = props;
  if (query.isPending) return <ListSkeleton label={t("common.loading")} rows={loadingRows} />;
  if (query.error) return <Alert severity="error">{errorText(query.error, t("common.failed"))}</Alert>;
  if (!query.data?.length) return empty;
  return <DataTable {...table} rows={query.data} container={plain ? "plain" : "paper"} />;
}

/** A row action from the caller's namespace: `label` and `tooltip` are keys, said with the row's `vars`. */
export interface KeyedAction<A extends string, T> {
  id: A;
  icon: ReactNode;
  label: string;
  /** The tooltip's key (the row may choose it); without it the tooltip says the label. */
  tooltip?: string | ((row: T) => string);
}

/**
 * Row actions named by translation keys, each reporting which action was chosen on which row
 * (as list pages open a dialog per action).
 */
export function keyedActions<A extends string, T>(
  t: TFunction,
  actions: readonly KeyedAction<A, T>[],
  vars: (row: T) => Record<string, string>,
  onAction: (action: A, row: T) => void,
): RowAction<T>[] {
  return actions.map(({ id, icon, label, tooltip }) => ({
    id,
    icon,
    label: (row) => t(label, vars(row)),
    tooltip: (row) => {
      if (tooltip === undefined) return t(label, vars(row));
      return t(typeof tooltip === "string" ? tooltip : tooltip(row));
    },
    onClick: (row) => onAction(id, row),
  }));
}

/** Edit and delete, as most resource rows end: labelled by the keys editNamed and deleteNamed. */
export const editDeleteActions = <T,>(): KeyedAction<"edit" | "delete", T>[] => [
  { id: "edit", icon: <EditOutlined />, label: "editNamed" },
  { id: "delete", icon: <DeleteOutline />, label: "deleteNamed" },
];
