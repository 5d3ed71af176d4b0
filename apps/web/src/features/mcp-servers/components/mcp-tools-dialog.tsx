import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";
import type { McpServer, McpTool } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useMcpTools } from "../../../api/mcp-servers.ts";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";

/** Argument names of a tool's input schema, for a one-line summary. */
const argumentNames = (tool: McpTool) => {
  const properties = tool.input_schema?.properties;
  return properties && typeof properties === "object" ? Object.keys(properties) : [];
};

function ToolList({ tools }: { tools: McpTool[] }) {
  const { t } = useTranslation("mcp-servers");
  if (tools.length === 0) return <Typography color="text.secondary">{t("tools.none")}</Typography>;
  return (
    <List aria-label={t("tools.listLabel")} dense>
      {tools.map((tool) => {
        const args = argumentNames(tool);
        return (
          <ListItem key={tool.name} divider alignItems="flex-start">
            <ListItemText
              primary={
                <Box component="span" dir="ltr" sx={{ fontFamily: "monospace", fontWeight: 600 }}>
                  {tool.name}
                </Box>
              }
              secondary={
                <>
                  <Box component="span" sx={{ display: "block" }}>
                    {tool.description || t("tools.noDescription")}
                  </Box>
                  {args.length > 0 && (
                    <Box component="span" sx={{ display: "block" }}>
                      {t("tools.arguments", { names: args.join(", ") })}
                    </Box>
                  )}
                </>
              }
            />
          </ListItem>
        );
      })}
    </List>
  );
}

/** The tools a server offers right now, read live from the server. */
export function McpToolsDialog({ server, onClose }: { server: McpServer; onClose: () => void }) {
  const { t } = useTranslation(["mcp-servers", "translation"], { nsMode: "fallback" });
  const tools = useMcpTools(server.id);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="mcp-tools-title">
      <DialogTitle id="mcp-tools-title">{t("tools.title", { name: server.name })}</DialogTitle>
      {/* A long tool list scrolls; keyboard users need to be able to focus it to scroll it. */}
      <DialogContent tabIndex={0}>
        {tools.isPending && <ListSkeleton label={t("tools.loading")} height={48} />}
        {tools.isError && (
          <Alert severity="error">
            {t("tools.failed")} {errorText(tools.error, t("common.failed"))}
          </Alert>
        )}
        {tools.data && <ToolList tools={tools.data} />}
      </DialogContent>
      <DialogActions>
        {tools.isError && <Button onClick={() => void tools.refetch()}>{t("tools.retry")}</Button>}
        <Button onClick={onClose}>{t("common.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}
