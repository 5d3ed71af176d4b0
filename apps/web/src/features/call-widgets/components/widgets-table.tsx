import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import type { CallWidget } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { useAssistants } from "../../../api/assistants.ts";
import { type Column, ResourceTable, type RowAction } from "../../../components/resource-table.tsx";
import { paths } from "../../../config/paths.ts";
import type { useCallWidgets } from "../api/call-widgets-api.ts";

/** The workspace's widgets: name (to the editor), assistant, sites, state; edit and delete per row. */
export function WidgetsTable(props: {
  widgets: ReturnType<typeof useCallWidgets>;
  empty: ReactNode;
  onDelete: (widget: CallWidget) => void;
}) {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const navigate = useNavigate();
  const assistants = useAssistants();
  const assistantName = (id: string) => assistants.data?.find((a) => a.id === id)?.name ?? "—";
  const columns: Column<CallWidget>[] = [
    {
      header: t("fields.name"),
      cell: (w) => (
        <Link component={RouterLink} to={`${paths.callWidgets}/${w.id}`} sx={{ fontWeight: 600 }}>
          {w.name}
        </Link>
      ),
    },
    { header: t("fields.assistant"), cell: (w) => assistantName(w.assistant_id) },
    {
      header: t("fields.origins"),
      sx: { maxWidth: 320, wordBreak: "break-all" },
      cell: (w) =>
        w.allowed_origins.length === 0 ? (
          t("noOrigins")
        ) : (
          <span dir="ltr">
            {w.allowed_origins.slice(0, 2).join(", ")}
            {w.allowed_origins.length > 2 ? ` +${w.allowed_origins.length - 2}` : ""}
          </span>
        ),
    },
    {
      header: t("fields.status"),
      cell: (w) => (
        <Chip size="small" color={w.enabled ? "success" : "default"} label={w.enabled ? t("on") : t("off")} />
      ),
    },
  ];
  const actions: RowAction<CallWidget>[] = [
    {
      id: "edit",
      icon: <EditOutlined />,
      label: (w) => t("editNamed", { name: w.name }),
      tooltip: (w) => t("editNamed", { name: w.name }),
      onClick: (w) => navigate(`${paths.callWidgets}/${w.id}`),
    },
    {
      id: "delete",
      icon: <DeleteOutline />,
      label: (w) => t("deleteNamed", { name: w.name }),
      tooltip: (w) => t("deleteNamed", { name: w.name }),
      onClick: props.onDelete,
    },
  ];
  return (
    <ResourceTable
      label={t("nav.callWidgets")}
      query={props.widgets}
      empty={props.empty}
      columns={columns}
      actions={actions}
    />
  );
}
