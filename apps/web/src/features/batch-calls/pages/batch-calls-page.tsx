import AddIcon from "@mui/icons-material/Add";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Tab from "@mui/material/Tab";
import Tabs from "@mui/material/Tabs";
import type { BatchCallSummary } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { useBatchCalls } from "../../../api/batch-calls.ts";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { paths } from "../../../config/paths.ts";
import { useDebouncedValue } from "../../../lib/use-debounced-value.ts";
import { BatchCallDialog } from "../components/batch-call-dialog.tsx";
import { ARCHIVED, BatchCallsFilters } from "../components/batch-calls-filters.tsx";
import { BatchCallsTable, type RowAction } from "../components/batch-calls-table.tsx";
import { BatchConfirmDialog } from "../components/batch-confirm-dialog.tsx";
import { DoNotCallPanel } from "../components/do-not-call-panel.tsx";
import { useBatchActions } from "../hooks/use-batch-actions.ts";
import { useBatchSave } from "../hooks/use-batch-save.ts";
import { useCampaignListState } from "../hooks/use-campaign-list-state.ts";

/** /batch-calls: the workspace's campaigns (or the archived ones), and its do-not-call list. */
export default function BatchCallsPage() {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const [tab, setTab] = useState<"campaigns" | "dnc">("campaigns");
  const [dialog, setDialog] = useState<{ batch: BatchCallSummary | null } | null>(null);
  const save = useBatchSave(t);
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title={t("nav.batchCalls")}
        subtitle={t("subtitle")}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ batch: null })}>
            {t("add")}
          </Button>
        }
      />
      <Tabs value={tab} onChange={(_e, v: "campaigns" | "dnc") => setTab(v)} sx={{ mb: 2 }}>
        <Tab value="campaigns" label={t("tabs.campaigns")} />
        <Tab value="dnc" label={t("tabs.doNotCall")} />
      </Tabs>
      {tab === "campaigns" ? (
        <Campaigns onNew={() => setDialog({ batch: null })} onEdit={(batch) => setDialog({ batch })} />
      ) : (
        <DoNotCallPanel />
      )}
      {dialog && (
        <BatchCallDialog
          batch={dialog.batch}
          onClose={() => setDialog(null)}
          onSubmit={async (input) => {
            const batch = await save(dialog.batch, input);
            setDialog(null);
            if (!dialog.batch) navigate(`${paths.batchCalls}/${batch.id}`);
          }}
        />
      )}
    </>
  );
}

function Campaigns(props: { onNew: () => void; onEdit: (batch: BatchCallSummary) => void }) {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const { filters, sort, page, setFilters, setSort, setPage } = useCampaignListState();
  const search = useDebouncedValue(filters.search, 300);
  const archived = filters.status === ARCHIVED;
  const list = useBatchCalls({
    is_archived: archived,
    page,
    search,
    status: filters.status === ARCHIVED || filters.status === "" ? undefined : filters.status,
    type: filters.type || undefined,
    sort_by: sort.by,
    sort_order: sort.order,
  });
  const actions = useBatchActions(t);
  const filtered = filters.search !== "" || filters.status !== "" || filters.type !== "";

  const act = (action: RowAction, batch: BatchCallSummary) => {
    if (action === "edit") props.onEdit(batch);
    else if (action === "archive" || action === "restore") void actions.setArchived(batch, action === "archive");
    else actions.ask(action, batch);
  };

  return (
    <Box>
      <BatchCallsFilters value={filters} onChange={setFilters} />
      {archived && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t("archivedNote")}
        </Alert>
      )}
      {list.isPending ? (
        <ListSkeleton label={t("common.loading")} />
      ) : list.error && !list.data ? (
        <RetryAlert
          error={list.error}
          fallback={t("loadFailed")}
          retryLabel={t("retry")}
          onRetry={() => void list.refetch()}
        />
      ) : list.data && list.data.total_count > 0 ? (
        <BatchCallsTable page={list.data} sort={sort} onSort={setSort} onPage={setPage} onAction={act} />
      ) : filtered ? (
        <EmptyState title={archived ? t("archivedEmpty") : t("noMatches")} hint={t("noMatchesHint")} />
      ) : (
        <EmptyState
          title={t("emptyTitle")}
          hint={t("emptyHint")}
          action={
            <Button variant="contained" startIcon={<AddIcon />} onClick={props.onNew}>
              {t("add")}
            </Button>
          }
        />
      )}
      <BatchConfirmDialog actions={actions} />
    </Box>
  );
}
