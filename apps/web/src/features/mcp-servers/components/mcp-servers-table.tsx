import BuildOutlined from "@mui/icons-material/BuildOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Typography from "@mui/material/Typography";
import type { McpServer } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { useMcpServers } from "../../../api/mcp-servers.ts";
import { type Column, ResourceTable, type RowAction } from "../../../components/resource-table.tsx";

export type McpServerAction = "tools" | "edit" | "delete";

const ACTIONS = [
  { action: "tools", icon: <BuildOutlined />, label: "toolsNamed" },
  { action: "edit", icon: <EditOutlined />, label: "editNamed" },
  { action: "delete", icon: <DeleteOutline />, label: "deleteNamed" },
] as const;

/** The workspace's tool servers, with their tools, edit and delete per row. */
export function McpServersTable(props: {
  servers: ReturnType<typeof useMcpServers>;
  empty: ReactNode;
  onAction: (action: McpServerAction, server: McpServer) => void;
}) {
  const { t } = useTranslation(["mcp-servers", "translation"], { nsMode: "fallback" });
  const columns: Column<McpServer>[] = [
    {
      header: t("fields.name"),
      cell: (server) => (
        <>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {server.name}
          </Typography>
          {server.description && (
            <Typography variant="caption" color="text.secondary">
              {server.description}
            </Typography>
          )}
        </>
      ),
    },
    {
      header: t("fields.url"),
      sx: { maxWidth: 360, wordBreak: "break-all" },
      cell: (server) => <span dir="ltr">{server.url}</span>,
    },
    { header: t("fields.timeout"), cell: (server) => t("seconds", { value: server.timeout }) },
    { header: t("fields.transport"), cell: (server) => t(`transports.${server.transport}`) },
  ];
  const actions: RowAction<McpServer>[] = ACTIONS.map(({ action, icon, label }) => ({
    id: action,
    icon,
    label: (server) => t(label, { name: server.name }),
    tooltip: (server) => t(label, { name: server.name }),
    onClick: (server) => props.onAction(action, server),
  }));
  return (
    <ResourceTable
      label={t("nav.mcpServers")}
      query={props.servers}
      empty={props.empty}
      columns={columns}
      actions={actions}
    />
  );
}
