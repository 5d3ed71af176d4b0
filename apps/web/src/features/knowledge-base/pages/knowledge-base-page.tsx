import ManageSearchOutlined from "@mui/icons-material/ManageSearchOutlined";
import TravelExploreOutlined from "@mui/icons-material/TravelExploreOutlined";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import type { KnowledgeDocument } from "@parley/contract";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { useCrawlUrl, useDeleteDocument, useDocuments, useRefreshDocument } from "../../../api/documents.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { api } from "../../../lib/http-client.ts";
import { useDeferredQuery } from "../../../lib/use-deferred-query.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { type DocumentAction, DocumentsTable } from "../components/documents-table.tsx";
import { TryQuestion } from "../components/try-question.tsx";
import { UploadZone } from "../components/upload-zone.tsx";

// The dialogs (crawl settings, search settings, the assistant links) load when first opened: the
// list is what everyone opening this page waits for. Each is mounted only while open.
const CrawlDialog = lazy(() =>
  import("../components/crawl-dialog.tsx").then((module) => ({ default: module.CrawlDialog })),
);
const SearchSettingsDialog = lazy(() =>
  import("../components/search-settings-dialog.tsx").then((module) => ({ default: module.SearchSettingsDialog })),
);
const LinkDialog = lazy(() =>
  import("../components/link-dialog.tsx").then((module) => ({ default: module.LinkDialog })),
);

type Open = { kind: "crawl" | "settings" } | { kind: "link" | "delete"; id: string } | null;

/** Saves a fetched file under its name (the API sends it as an attachment). */
async function download(document: KnowledgeDocument) {
  const response = await api.send(`/documents/${document.id}/file`);
  const url = URL.createObjectURL(await response.blob());
  const a = Object.assign(window.document.createElement("a"), { href: url, download: document.name });
  a.click();
  URL.revokeObjectURL(url);
}

/** Knowledge base: upload files and crawl sites, see them processed, link them to assistants, try questions. */
export default function KnowledgeBasePage() {
  const { t } = useTranslation("knowledge-base");
  const notice = useNotice();
  const documents = useDocuments();
  // The table is drawn in an interruptible render once the list arrives (lib/use-deferred-query.ts).
  const drawn = useDeferredQuery(documents);
  const crawl = useCrawlUrl();
  const remove = useDeleteDocument();
  const refresh = useRefreshDocument();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  // Dialogs read the current row, so a link made inside one shows at once.
  const current = open && "id" in open ? documents.data?.find((d) => d.id === open.id) : undefined;
  const fail = notice.failure;

  const act = (action: DocumentAction, document: KnowledgeDocument) => {
    if (action === "link" || action === "delete") setOpen({ kind: action, id: document.id });
    else if (action === "download") download(document).catch(fail);
    else refresh.mutate(document.id, { onError: fail });
  };

  const actions = (
    <>
      <Button startIcon={<ManageSearchOutlined />} onClick={() => setOpen({ kind: "settings" })}>
        {t("searchSettings")}
      </Button>
      <Button variant="contained" startIcon={<TravelExploreOutlined />} onClick={() => setOpen({ kind: "crawl" })}>
        {t("crawl")}
      </Button>
    </>
  );
  return (
    <>
      <PageHeader title={t("nav.knowledgeBase")} subtitle={t("subtitle")} actions={actions} />
      <Stack spacing={3}>
        <UploadZone />
        <DocumentsTable
          query={drawn}
          empty={<EmptyState title={t("emptyTitle")} hint={t("emptyHint")} />}
          onAction={act}
        />
        <TryQuestion />
      </Stack>
      <Suspense fallback={null}>
        {open?.kind === "crawl" && (
          <CrawlDialog
            busy={crawl.isPending}
            onClose={close}
            onSubmit={async (body) => {
              await crawl.mutateAsync(body);
              notice.success(t("crawlStarted"));
              close();
            }}
          />
        )}
        {open?.kind === "settings" && <SearchSettingsDialog onClose={close} />}
        {open?.kind === "link" && current && <LinkDialog document={current} onClose={close} />}
      </Suspense>
      <ConfirmDialog
        open={open?.kind === "delete"}
        title={t("deleteTitle")}
        text={t("deleteText", { name: current?.name ?? "" })}
        confirmLabel={t("delete")}
        busy={remove.isPending}
        onClose={close}
        onConfirm={() =>
          current &&
          remove.mutate(current.id, {
            onSuccess: () => {
              notice.success(t("deleted"));
              close();
            },
            onError: fail,
          })
        }
      />
    </>
  );
}
