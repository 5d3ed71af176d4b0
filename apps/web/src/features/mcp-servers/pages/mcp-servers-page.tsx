import type { CreateMcpServerBody, McpServer } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { useDeleteMcpServer, useMcpServers, useSaveMcpServer } from "../../../api/mcp-servers.ts";
import { ResourceListPage } from "../../../components/resource-list-page.tsx";
import { useResourcePage } from "../../../lib/use-resource-page.ts";
import { MCP_SERVER_ACTIONS, type McpServerAction, mcpServerColumns } from "../components/mcp-server-columns.tsx";
import { McpServerDialog } from "../components/mcp-server-dialog.tsx";
import { McpToolsDialog } from "../components/mcp-tools-dialog.tsx";

/** Tool servers: external MCP servers whose tools assistants can use. */
export default function McpServersPage() {
  const { t } = useTranslation(["mcp-servers", "translation"], { nsMode: "fallback" });
  const servers = useMcpServers();
  const page = useResourcePage<McpServer, McpServerAction, CreateMcpServerBody>(t, {
    save: useSaveMcpServer(),
    remove: useDeleteMcpServer(),
  });
  return (
    <ResourceListPage
      page={page}
      t={t}
      title={t("nav.mcpServers")}
      query={servers}
      columns={mcpServerColumns(t)}
      actions={MCP_SERVER_ACTIONS}
      vars={(server) => ({ name: server?.name ?? "" })}
      editor={(server) => <McpServerDialog server={server} onClose={page.close} onSubmit={page.save} />}
    >
      {page.open?.kind === "tools" && <McpToolsDialog server={page.open.item} onClose={page.close} />}
    </ResourceListPage>
  );
}
