import ArrowBack from "@mui/icons-material/ArrowBack";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type BatchCall, batchActionAllowed } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import { useBatchCall } from "../../../api/batch-calls.ts";
import { DescriptionList } from "../../../components/description-list.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../config/paths.ts";
import { BatchCallDialog } from "../components/batch-call-dialog.tsx";
import { BatchConfirmDialog } from "../components/batch-confirm-dialog.tsx";
import { BatchStatusChip } from "../components/batch-status-chip.tsx";
import { ContactsTable } from "../components/contacts-table.tsx";
import { formatWhen } from "../components/format.ts";
import { ProgressCard } from "../components/progress-card.tsx";
import { useBatchActions } from "../hooks/use-batch-actions.ts";
import { useBatchSave } from "../hooks/use-batch-save.ts";
import { useCallsUnderWay } from "../hooks/use-calls-under-way.ts";

/** /batch-calls/{id}: one campaign's live progress, its contacts' outcomes and its actions. */
export default function BatchCallDetailPage() {
  const { t } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const { batchCallId = "" } = useParams();
  const batch = useBatchCall(batchCallId);
  const back = (
    <Button component={RouterLink} to={paths.batchCalls} startIcon={<ArrowBack />} sx={{ mb: 1 }}>
      {t("detail.back")}
    </Button>
  );
  if (batch.isPending)
    return (
      <>
        {back}
        <ListSkeleton label={t("common.loading")} rows={4} />
      </>
    );
  if (!batch.data)
    return (
      <>
        {back}
        <PageHeader title={t("nav.batchCalls")} />
        <Alert severity="error">{errorText(batch.error, t("loadFailed"))}</Alert>
      </>
    );
  return (
    <>
      {back}
      <Detail batch={batch.data} />
    </>
  );
}

function Detail({ batch }: { batch: BatchCall }) {
  const { t, i18n } = useTranslation(["batch-calls", "translation"], { nsMode: "fallback" });
  const navigate = useNavigate();
  const actions = useBatchActions(t, { deleted: () => navigate(paths.batchCalls) });
  const save = useBatchSave(t);
  const [editing, setEditing] = useState(false);
  useCallsUnderWay(batch);
  const allowed = (a: "edit" | "initiate" | "stop" | "archive" | "delete") => batchActionAllowed(a, batch.status);
  const window = batch.calling_window;
  return (
    <>
      <PageHeader
        title={batch.name}
        actions={
          <Stack direction="row" spacing={1} sx={{ flexWrap: "wrap" }}>
            {allowed("edit") && !batch.is_archived && (
              <Button onClick={() => setEditing(true)}>{t("actions.edit")}</Button>
            )}
            {allowed("initiate") && !batch.is_archived && (
              <Button variant="contained" onClick={() => actions.ask("initiate", batch)}>
                {t("actions.initiate")}
              </Button>
            )}
            {allowed("stop") && (
              <Button color="warning" variant="outlined" onClick={() => actions.ask("stop", batch)}>
                {t("actions.stop")}
              </Button>
            )}
            {allowed("archive") && (
              <Button onClick={() => void actions.setArchived(batch, !batch.is_archived)}>
                {batch.is_archived ? t("actions.restore") : t("actions.archive")}
              </Button>
            )}
            {allowed("delete") && (
              <Button color="error" onClick={() => actions.ask("delete", batch)}>
                {t("actions.delete")}
              </Button>
            )}
          </Stack>
        }
      />
      <Stack direction="row" spacing={2} sx={{ mb: 2, alignItems: "center", flexWrap: "wrap" }}>
        <BatchStatusChip status={batch.status} />
        {batch.is_archived && <Typography color="text.secondary">{t("filters.archived")}</Typography>}
        <Button
          component={RouterLink}
          to={`${paths.callLogs}/batch-call-id/${batch.id}`}
          variant="outlined"
          size="small"
        >
          {t("detail.callLogs")}
        </Button>
      </Stack>
      <ProgressCard batch={batch} />
      <Paper variant="outlined" sx={{ p: 2, mb: 2 }}>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t("detail.settings")}
        </Typography>
        <DescriptionList
          columns={{ xs: "1fr", sm: "max-content 1fr" }}
          rowGap={1}
          rows={[
            [
              t("fields.start"),
              batch.scheduled_time
                ? formatWhen(batch.scheduled_time, i18n.language, batch.timezone)
                : t("form.startNow"),
            ],
            [t("fields.timezone"), batch.timezone],
            [
              t("form.window"),
              window
                ? t("detail.window", {
                    start: window.start,
                    end: window.end,
                    days: window.days.length,
                    basis: t(`detail.basis.${window.timezone}`),
                  })
                : t("detail.anyTime"),
            ],
            [t("fields.maxAttempts"), String(batch.retry_policy.max_attempts)],
            [t("fields.concurrency"), String(batch.concurrency)],
            [
              t("fields.spendCap"),
              batch.spend_cap === null ? "—" : `$${batch.spent.toFixed(2)} / $${batch.spend_cap.toFixed(2)}`,
            ],
            [t("detail.started"), batch.started_at ? formatWhen(batch.started_at, i18n.language) : "—"],
            [t("detail.finished"), batch.finished_at ? formatWhen(batch.finished_at, i18n.language) : "—"],
          ]}
        />
      </Paper>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t("detail.contacts")}
      </Typography>
      <ContactsTable batch={batch} />
      <BatchConfirmDialog actions={actions} />
      {editing && (
        <BatchCallDialog
          batch={batch}
          onClose={() => setEditing(false)}
          onSubmit={async (input) => {
            await save(batch, input);
            setEditing(false);
          }}
        />
      )}
    </>
  );
}
