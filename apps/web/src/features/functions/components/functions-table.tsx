import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import PlayArrowOutlined from "@mui/icons-material/PlayArrowOutlined";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import type { ToolFunction } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { useFunctions } from "../../../api/functions.ts";
import { type Column, ResourceTable, type RowAction } from "../../../components/resource-table.tsx";

export type FunctionAction = "test" | "edit" | "delete";

const ACTIONS = [
  { action: "test", icon: <PlayArrowOutlined />, label: "testNamed" },
  { action: "edit", icon: <EditOutlined />, label: "editNamed" },
  { action: "delete", icon: <DeleteOutline />, label: "deleteNamed" },
] as const;

/** The workspace's functions: what each calls and how, with test, edit and delete per row. */
export function FunctionsTable(props: {
  functions: ReturnType<typeof useFunctions>;
  empty: ReactNode;
  onAction: (a: FunctionAction, fn: ToolFunction) => void;
}) {
  const { t } = useTranslation(["functions", "translation"], { nsMode: "fallback" });
  const columns: Column<ToolFunction>[] = [
    {
      header: t("fields.name"),
      cell: (fn) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {fn.name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {fn.description}
          </Typography>
        </>
      ),
    },
    {
      header: t("fields.endpoint"),
      sx: { maxWidth: 360, wordBreak: "break-all" },
      cell: (fn) => (
        <>
          <Chip size="small" label={fn.method} sx={{ mr: 1, fontFamily: "monospace" }} />
          <span dir="ltr">{fn.url}</span>
        </>
      ),
    },
    { header: t("fields.timeout"), cell: (fn) => t("seconds", { value: fn.timeout }) },
    { header: t("fields.secret"), cell: (fn) => (fn.has_secret ? t("secretSet") : t("secretNone")) },
  ];
  const actions: RowAction<ToolFunction>[] = ACTIONS.map(({ action, icon, label }) => ({
    id: action,
    icon,
    label: (fn) => t(label, { name: fn.name }),
    tooltip: (fn) => t(label, { name: fn.name }),
    onClick: (fn) => props.onAction(action, fn),
  }));
  return (
    <ResourceTable
      label={t("nav.functions")}
      query={props.functions}
      empty={props.empty}
      columns={columns}
      actions={actions}
    />
  );
}
