import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import type { TFunction } from "i18next";
import type { ReactNode } from "react";
import type { ResourcePage } from "../lib/use-resource-page.ts";
import { ConfirmDialog } from "./confirm-dialog.tsx";
import type { Column } from "./data-table.tsx";
import { EmptyState } from "./list-placeholders.tsx";
import { PageHeader } from "./page-header.tsx";
import { type KeyedAction, keyedActions, type ListQuery, ResourceTable } from "./resource-table.tsx";

/**
 * A list page of a workspace resource (useResourcePage's state): its header with the create
 * button, the table with its loading, failure and empty states, the create/edit dialog (`editor`)
 * and the delete confirmation. Texts come from the page's namespace `t`, under the keys create,
 * subtitle, emptyTitle, emptyHint, deleteTitle, deleteText and delete.
 */
export function ResourceListPage<T extends { id: string }, A extends string>(props: {
  page: ResourcePage<T, A>;
  t: TFunction;
  title: string;
  /** The header, around the create button; by default the page's title and subtitle. */
  header?: (create: ReactNode) => ReactNode;
  query: ListQuery<T>;
  columns: readonly Column<T>[];
  actions: readonly KeyedAction<A | "edit" | "delete", T>[];
  /** What texts say about a row; with no row (the confirmation closing), the same keys, empty. */
  vars: (item: T | null) => Record<string, string>;
  /** A row action that does its work at once instead of opening a dialog. */
  onAction?: (action: A | "edit" | "delete", item: T) => void;
  editor: (item: T | null) => ReactNode;
  /** The dialogs of the page's other row actions. */
  children?: ReactNode;
}) {
  const { page, t } = props;
  const { open } = page;
  const create = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => page.setOpen({ kind: "create" })}>
      {t("create")}
    </Button>
  );
  return (
    <>
      {props.header ? (
        props.header(create)
      ) : (
        <PageHeader title={props.title} subtitle={t("subtitle")} actions={create} />
      )}
      <ResourceTable
        label={props.title}
        query={props.query}
        empty={<EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={create} />}
        columns={props.columns}
        actions={keyedActions(t, props.actions, props.vars, props.onAction ?? page.act)}
      />
      {(open?.kind === "create" || open?.kind === "edit") && props.editor(page.editing)}
      {props.children}
      <ConfirmDialog
        open={page.deleting !== null}
        title={t("deleteTitle")}
        text={t("deleteText", props.vars(page.deleting))}
        confirmLabel={t("delete")}
        onClose={page.close}
        onConfirm={() => page.deleting && page.remove(page.deleting)}
      />
    </>
  );
}
