import BuildOutlined from "@mui/icons-material/BuildOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import IconButton from "@mui/material/IconButton";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { McpServer } from "@parley/contract";
import { useTranslation } from "react-i18next";

export type McpServerAction = "tools" | "edit" | "delete";

const ACTIONS = [
  { action: "tools", icon: <BuildOutlined />, label: "toolsNamed" },
  { action: "edit", icon: <EditOutlined />, label: "editNamed" },
  { action: "delete", icon: <DeleteOutline />, label: "deleteNamed" },
] as const;

/** The workspace's tool servers, with their tools, edit and delete per row. */
export function McpServersTable(props: {
  servers: McpServer[];
  onAction: (action: McpServerAction, server: McpServer) => void;
}) {
  const { t } = useTranslation(["mcp-servers", "translation"], { nsMode: "fallback" });
  return (
    <TableContainer component={Paper}>
      <Table aria-label={t("nav.mcpServers")}>
        <TableHead>
          <TableRow>
            <TableCell>{t("fields.name")}</TableCell>
            <TableCell>{t("fields.url")}</TableCell>
            <TableCell>{t("fields.timeout")}</TableCell>
            <TableCell>{t("fields.transport")}</TableCell>
            <TableCell align="right">{t("common.actions")}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {props.servers.map((server) => (
            <TableRow key={server.id}>
              <TableCell>
                <Typography variant="body2" sx={{ fontWeight: 600 }}>
                  {server.name}
                </Typography>
                {server.description && (
                  <Typography variant="caption" color="text.secondary">
                    {server.description}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={{ maxWidth: 360, wordBreak: "break-all" }}>
                <span dir="ltr">{server.url}</span>
              </TableCell>
              <TableCell>{t("seconds", { value: server.timeout })}</TableCell>
              <TableCell>{t(`transports.${server.transport ?? "auto"}`)}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                {ACTIONS.map(({ action, icon, label }) => (
                  <Tooltip key={action} title={t(label, { name: server.name })}>
                    <IconButton
                      aria-label={t(label, { name: server.name })}
                      onClick={() => props.onAction(action, server)}
                    >
                      {icon}
                    </IconButton>
                  </Tooltip>
                ))}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
