import DeleteOutline from "@mui/icons-material/DeleteOutline";
import DownloadOutlined from "@mui/icons-material/DownloadOutlined";
import LinkOutlined from "@mui/icons-material/LinkOutlined";
import Refresh from "@mui/icons-material/Refresh";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { DocumentStatus, KnowledgeDocument } from "@parley/contract";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { type Column, type KeyedAction, keyedActions, ResourceTable } from "../../../components/resource-table.tsx";
import { formatBytes } from "../../../lib/byte-size.ts";
import { documentReason } from "./failure-reason.ts";

export type DocumentAction = "link" | "refresh" | "download" | "delete";

/** Per document: its assistants, process (or crawl) again, download, delete; each named for it. */
const DOCUMENT_ACTIONS: KeyedAction<DocumentAction, KnowledgeDocument>[] = [
  { id: "link", icon: <LinkOutlined />, label: "linkNamed", tooltip: "link" },
  { id: "refresh", icon: <Refresh />, label: "refreshNamed", tooltip: (d) => (d.url ? "recrawl" : "reprocess") },
  { id: "download", icon: <DownloadOutlined />, label: "downloadNamed", tooltip: "download" },
  { id: "delete", icon: <DeleteOutline />, label: "deleteNamed", tooltip: "delete" },
];

const STATUS_COLOR: Record<DocumentStatus, "default" | "info" | "success" | "error"> = {
  pending: "default",
  processing: "info",
  ready: "success",
  failed: "error",
};

/** The documents with their state: status (and why it failed), size, chunks, crawl progress, assistants. */
export function DocumentsTable(props: {
  query: { data: readonly KnowledgeDocument[] | undefined; isPending: boolean; error: unknown };
  empty: ReactNode;
  onAction: (action: DocumentAction, document: KnowledgeDocument) => void;
}) {
  const { t, i18n } = useTranslation("knowledge-base");
  const columns: Column<KnowledgeDocument>[] = [
    {
      header: t("columns.name"),
      cell: (d) => (
        <Stack>
          <Typography variant="body2" dir="auto" sx={{ fontWeight: 500 }}>
            {d.name}
          </Typography>
          {d.url && (
            <Typography variant="caption" color="text.secondary" dir="ltr" sx={{ overflowWrap: "anywhere" }}>
              {d.url}
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      header: t("columns.status"),
      cell: (d) => {
        const reason = documentReason(t, d, i18n.language);
        return (
          <Stack spacing={0.5} sx={{ maxWidth: 320 }}>
            <Chip
              size="small"
              color={STATUS_COLOR[d.status]}
              label={t(`status.${d.status}`)}
              sx={{ alignSelf: "start" }}
            />
            {d.url && d.status === "processing" && (
              <Typography variant="caption">{t("pages", { done: d.pages_done, found: d.pages_found })}</Typography>
            )}
            {reason && (
              <Typography variant="caption" color={d.status === "failed" ? "error" : "text.secondary"}>
                {reason.sentence}
              </Typography>
            )}
            {reason?.detail && (
              // The server's own words (English, with addresses and codes), so an operator can act on them.
              <Typography variant="caption" color="text.secondary" dir="ltr" sx={{ overflowWrap: "anywhere" }}>
                {reason.detail}
              </Typography>
            )}
          </Stack>
        );
      },
    },
    { header: t("columns.size"), cell: (d) => formatBytes(d.size_bytes, i18n.language) },
    { header: t("columns.chunks"), cell: (d) => d.chunk_count },
    {
      header: t("columns.assistants"),
      cell: (d) =>
        d.agents.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t("noneLinked")}
          </Typography>
        ) : (
          <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: "wrap" }}>
            {d.agents.map((a) => (
              <Chip key={a.id} size="small" variant="outlined" label={<span dir="auto">{a.name}</span>} />
            ))}
          </Stack>
        ),
    },
  ];
  const actions = keyedActions(t, DOCUMENT_ACTIONS, (d) => ({ name: d.name }), props.onAction);
  return (
    <ResourceTable
      label={t("nav.knowledgeBase")}
      query={props.query}
      empty={props.empty}
      columns={columns}
      actions={actions}
    />
  );
}
