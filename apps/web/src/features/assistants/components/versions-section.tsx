import PublishOutlined from "@mui/icons-material/PublishOutlined";
import RestoreOutlined from "@mui/icons-material/RestoreOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { AssistantVersionSummary } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { DataTable } from "../../../components/data-table.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { useDates } from "../../../lib/dates-in-language.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import {
  useDraft,
  usePublish,
  useRestoreVersion,
  useVersions,
  useVersionsFollowAssistant,
} from "../api/versions-api.ts";
import { type AssistantFormValues, toFormValues, toUpdateBody } from "../utils/assistant-form.ts";
import { CompareVersions } from "./compare-versions.tsx";
import type { EditorForm } from "./editor-types.ts";
import { PublishDialog } from "./publish-dialog.tsx";

/**
 * The assistant's versions: which one calls run, whether the draft has changes not yet published,
 * publishing with a note, every version with its note, author and time, comparing two, and a rollback.
 */
export function VersionsSection({ assistantId, form }: { assistantId: string; form: EditorForm }) {
  const { t } = useTranslation("assistants");
  const { enqueueSnackbar } = useSnackbar();
  const versions = useVersions(assistantId);
  const draft = useDraft(assistantId);
  const publish = usePublish(assistantId);
  const restore = useRestoreVersion(assistantId);
  useVersionsFollowAssistant(assistantId);
  const [publishing, setPublishing] = useState(false);
  const [restoring, setRestoring] = useState<AssistantVersionSummary | null>(null);
  const [compare, setCompare] = useState<{ from: number | null; to: number | null } | null>(null);
  const edited = form.formState.isDirty;
  const published = draft.data?.published_version;
  const pending = edited || Boolean(draft.data?.changed);
  const latest = versions.data?.[0]?.number ?? published ?? 0;

  // The editor's edits are checked by its own schema before they become a version.
  const publishNow = async (note: string) => {
    let edits: ReturnType<typeof toUpdateBody> | undefined;
    if (edited) {
      const values = await new Promise<AssistantFormValues | null>((resolve) => {
        void form.handleSubmit(resolve, () => resolve(null))();
      });
      if (!values) throw new Error(t("versions.fixFirst"));
      edits = toUpdateBody(values);
    }
    const saved = await publish.mutateAsync({ note, edits });
    form.reset(toFormValues(saved));
    setPublishing(false);
    enqueueSnackbar(t("versions.published", { number: latest + 1 }), { variant: "success" });
  };

  const restoreNow = async (version: AssistantVersionSummary) => {
    try {
      const saved = await restore.mutateAsync(version.number);
      form.reset(toFormValues(saved));
      enqueueSnackbar(t("versions.restored", { number: version.number }), { variant: "success" });
    } catch (error) {
      enqueueSnackbar(errorText(error, t("notices.failed")), { variant: "error" });
    } finally {
      setRestoring(null);
    }
  };

  return (
    <Box component="section" aria-labelledby="versions-heading">
      <Stack
        direction={{ xs: "column", sm: "row" }}
        spacing={1}
        sx={{ mb: 2, alignItems: { sm: "center" }, justifyContent: "space-between" }}
      >
        <Box>
          <Typography id="versions-heading" variant="h6" component="h2">
            {t("versions.title")}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 0.5 }}>
            {published !== undefined && (
              <Typography color="text.secondary" data-testid="published-version">
                {t("versions.callsRun", { number: published })}
              </Typography>
            )}
            {pending && <Chip size="small" color="warning" label={t("versions.unpublished")} />}
          </Stack>
        </Box>
        <Button
          variant="contained"
          startIcon={<PublishOutlined />}
          disabled={!pending || draft.isPending}
          onClick={() => setPublishing(true)}
          sx={{ alignSelf: { xs: "flex-start", sm: "center" } }}
        >
          {t("versions.publish")}
        </Button>
      </Stack>
      {!pending && draft.data && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t("versions.nothingToPublish")}
        </Typography>
      )}
      {draft.data?.changed && !edited && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t("versions.draftElsewhere")}
        </Alert>
      )}
      {versions.isPending && <ListSkeleton label={t("versions.loading")} rows={2} height={48} />}
      {versions.isError && (
        <RetryAlert
          error={versions.error}
          fallback={t("versions.loadFailed")}
          retryLabel={t("versions.retry")}
          onRetry={() => void versions.refetch()}
        />
      )}
      {versions.data && <VersionTable versions={versions.data} onRestore={setRestoring} />}
      {versions.data && versions.data.length > 1 && (
        <Box sx={{ mt: 3 }}>
          <CompareVersions
            assistantId={assistantId}
            versions={versions.data}
            from={compare?.from ?? versions.data[1]?.number ?? null}
            to={compare?.to ?? versions.data[0]?.number ?? null}
            onChange={(from, to) => setCompare({ from, to })}
          />
        </Box>
      )}
      {publishing && (
        <PublishDialog
          nextNumber={latest + 1}
          withEdits={edited}
          busy={publish.isPending}
          onPublish={publishNow}
          onClose={() => setPublishing(false)}
        />
      )}
      <ConfirmDialog
        open={restoring !== null}
        title={t("versions.restoreTitle", { number: restoring?.number ?? 0 })}
        text={t(edited ? "versions.restoreTextEdited" : "versions.restoreText", {
          number: restoring?.number ?? 0,
          next: latest + 1,
        })}
        confirmLabel={t("versions.restore")}
        busy={restore.isPending}
        onConfirm={() => restoring && void restoreNow(restoring)}
        onClose={() => setRestoring(null)}
      />
    </Box>
  );
}

function VersionTable(props: {
  versions: readonly AssistantVersionSummary[];
  onRestore: (version: AssistantVersionSummary) => void;
}) {
  const { t } = useTranslation("assistants");
  const dates = useDates();
  // No author: a version Parley wrote itself (the migration's version 1 of an older assistant).
  const author = (version: AssistantVersionSummary) =>
    version.author_id === null ? t("versions.byParley") : (version.author_name ?? t("versions.deletedAccount"));
  return (
    <DataTable
      label={t("versions.listLabel")}
      size="small"
      container="plain"
      rows={props.versions}
      rowKey={(version) => version.number}
      columns={[
        {
          header: t("versions.version"),
          cell: (version) => (
            <Stack direction="row" spacing={1} sx={{ alignItems: "center", whiteSpace: "nowrap" }}>
              <span>{t("versions.number", { number: version.number })}</span>
              {version.published && <Chip size="small" color="success" label={t("versions.publishedBadge")} />}
            </Stack>
          ),
        },
        {
          header: t("versions.noteColumn"),
          cell: (version) => version.note || "—",
          dir: "auto",
          sx: { minWidth: 160, overflowWrap: "anywhere" },
        },
        { header: t("versions.author"), cell: (version) => author(version), dir: "auto" },
        {
          header: t("versions.time"),
          cell: (version) => dates.moment(version.created_at),
          sx: { whiteSpace: "nowrap" },
        },
      ]}
      actions={[
        {
          id: "restore",
          icon: <RestoreOutlined />,
          label: (version) => t("versions.restoreLabel", { number: version.number }),
          tooltip: (version) => t("versions.restoreLabel", { number: version.number }),
          onClick: (version) => props.onRestore(version),
          shown: (version) => !version.published,
        },
      ]}
    />
  );
}
