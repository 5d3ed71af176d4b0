import BuildOutlined from "@mui/icons-material/BuildOutlined";
import type { McpServer } from "@parley/contract";
import type { TFunction } from "i18next";
import type { Column } from "../../../components/data-table.tsx";
import { NameCell } from "../../../components/name-cell.tsx";
import { editDeleteActions, type KeyedAction } from "../../../components/resource-table.tsx";

export type McpServerAction = "tools" | "edit" | "delete";

/** Its tools, edit and delete per row, each named for its server. */
export const MCP_SERVER_ACTIONS: KeyedAction<McpServerAction, McpServer>[] = [
  { id: "tools", icon: <BuildOutlined />, label: "toolsNamed" },
  ...editDeleteActions<McpServer>(),
];

/** The workspace's tool servers: where each is, how long a call may take, how it is reached. */
export const mcpServerColumns = (t: TFunction): Column<McpServer>[] => [
  { header: t("fields.name"), cell: (server) => <NameCell name={server.name} detail={server.description} /> },
  {
    header: t("fields.url"),
    sx: { maxWidth: 360, wordBreak: "break-all" },
    cell: (server) => <span dir="ltr">{server.url}</span>,
  },
  { header: t("fields.timeout"), cell: (server) => t("seconds", { value: server.timeout }) },
  { header: t("fields.transport"), cell: (server) => t(`transports.${server.transport}`) },
];
