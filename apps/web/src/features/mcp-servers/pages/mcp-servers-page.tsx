import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import type { CreateMcpServerBody, McpServer } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useDeleteMcpServer, useMcpServers, useSaveMcpServer } from "../../../api/mcp-servers.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useResourcePage } from "../../../lib/use-resource-page.ts";
import { McpServerDialog } from "../components/mcp-server-dialog.tsx";
import { type McpServerAction, McpServersTable } from "../components/mcp-servers-table.tsx";
import { McpToolsDialog } from "../components/mcp-tools-dialog.tsx";

/** Tool servers: external MCP servers whose tools assistants can use. */
export default function McpServersPage() {
  const { t } = useTranslation(["mcp-servers", "translation"], { nsMode: "fallback" });
  const servers = useMcpServers();
  const page = useResourcePage<McpServer, McpServerAction, CreateMcpServerBody>(t, {
    save: useSaveMcpServer(),
    remove: useDeleteMcpServer(),
  });
  const { open, setOpen, close } = page;

  const createButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ kind: "create" })}>
      {t("create")}
    </Button>
  );
  return (
    <>
      <PageHeader title={t("nav.mcpServers")} subtitle={t("subtitle")} actions={createButton} />
      <McpServersTable
        servers={servers}
        empty={<EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={createButton} />}
        onAction={(kind, item) => setOpen({ kind, item })}
      />
      {(open?.kind === "create" || open?.kind === "edit") && (
        <McpServerDialog server={page.editing} onClose={close} onSubmit={page.save} />
      )}
      {open?.kind === "tools" && <McpToolsDialog server={open.item} onClose={close} />}
      <ConfirmDialog
        open={open?.kind === "delete"}
        title={t("deleteTitle")}
        text={t("deleteText", { name: open?.kind === "delete" ? open.item.name : "" })}
        confirmLabel={t("delete")}
        onClose={close}
        onConfirm={() => open?.kind === "delete" && page.remove(open.item)}
      />
    </>
  );
}
