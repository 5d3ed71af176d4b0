import AddIcon from "@mui/icons-material/Add";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import type { CreateMcpServerBody, McpServer } from "@parley/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { createMcpServer, deleteMcpServer, mcpServersQuery, updateMcpServer } from "../api/mcp-servers-api.ts";
import { McpServerDialog } from "../components/mcp-server-dialog.tsx";
import { type McpServerAction, McpServersTable } from "../components/mcp-servers-table.tsx";
import { McpToolsDialog } from "../components/mcp-tools-dialog.tsx";

type Open = { kind: "create" } | { kind: McpServerAction; server: McpServer } | null;

/** Tool servers: external MCP servers whose tools assistants can use. */
export default function McpServersPage() {
  const { t } = useTranslation(["mcp-servers", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const servers = useQuery(mcpServersQuery());
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["mcp-servers"] });

  const save = async (body: CreateMcpServerBody) => {
    const editing = open?.kind === "edit" ? open.server : null;
    // A failure is thrown back to the dialog, which keeps what was typed and shows why.
    if (editing) await updateMcpServer(editing.id, body);
    else await createMcpServer(body);
    enqueueSnackbar(t(editing ? "updated" : "created"), { variant: "success" });
    close();
    await refresh();
  };

  const remove = async (server: McpServer) => {
    close();
    try {
      await deleteMcpServer(server.id);
      enqueueSnackbar(t("deleted"), { variant: "success" });
      await refresh();
    } catch (error) {
      enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });
    }
  };

  const createButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ kind: "create" })}>
      {t("create")}
    </Button>
  );
  return (
    <>
      <PageHeader title={t("nav.mcpServers")} subtitle={t("subtitle")} actions={createButton} />
      {servers.isPending && <ListSkeleton label={t("common.loading")} />}
      {servers.isError && <Alert severity="error">{errorText(servers.error, t("common.failed"))}</Alert>}
      {servers.data?.length === 0 && <EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={createButton} />}
      {servers.data && servers.data.length > 0 && (
        <McpServersTable servers={servers.data} onAction={(kind, server) => setOpen({ kind, server })} />
      )}
      {(open?.kind === "create" || open?.kind === "edit") && (
        <McpServerDialog server={open.kind === "edit" ? open.server : null} onClose={close} onSubmit={save} />
      )}
      {open?.kind === "tools" && <McpToolsDialog server={open.server} onClose={close} />}
      <ConfirmDialog
        open={open?.kind === "delete"}
        title={t("deleteTitle")}
        text={t("deleteText", { name: open?.kind === "delete" ? open.server.name : "" })}
        confirmLabel={t("delete")}
        onClose={close}
        onConfirm={() => open?.kind === "delete" && void remove(open.server)}
      />
    </>
  );
}
