import PlayArrow from "@mui/icons-material/PlayArrow";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { TestSuite } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { useDeleteTestSuite, useTestSuite } from "../api/test-suites-api.ts";
import { AssistantTrail } from "../components/assistant-trail.tsx";
import { CasesPanel } from "../components/cases-panel.tsx";
import { RunsTable } from "../components/runs-table.tsx";
import { judgeLabel, SuiteDialog } from "../components/suite-dialog.tsx";
import { VersionSelect } from "../components/version-select.tsx";
import { useStartRun } from "../hooks/use-start-run.ts";
import { testsPath } from "../paths.ts";

/** /assistants/{assistantId}/tests/{suiteId}: the suite's cases, its runs, and the button that runs it. */
export default function TestSuitePage() {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const { assistantId = "", suiteId = "" } = useParams();
  const suite = useTestSuite(suiteId);
  if (suite.isPending)
    return (
      <>
        <AssistantTrail assistantId={assistantId} />
        <ListSkeleton label={t("common.loading")} rows={4} />
      </>
    );
  if (!suite.data) {
    const missing = suite.error instanceof ApiError && suite.error.status === 404;
    return (
      <>
        <AssistantTrail assistantId={assistantId} />
        <Alert severity="error">{missing ? t("suite.notFound") : errorText(suite.error, t("loadFailed"))}</Alert>
      </>
    );
  }
  return <Suite suite={suite.data} />;
}

function Suite({ suite }: { suite: TestSuite }) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const navigate = useNavigate();
  const notice = useNotice();
  const remove = useDeleteTestSuite();
  // The assistant version the suite's runs call (null: the one published when the run starts).
  const [version, setVersion] = useState<number | null>(null);
  const start = useStartRun(suite, version);
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const confirmDelete = async () => {
    setDeleting(false);
    if (await notice.run(remove.mutateAsync(suite.id), t("suite.deleted"))) navigate(testsPath(suite.agent_id));
  };

  return (
    <>
      <AssistantTrail assistantId={suite.agent_id} suite={suite} />
      <PageHeader
        title={suite.name}
        subtitle={suite.description || undefined}
        actions={
          <>
            <Button onClick={() => setEditing(true)}>{t("suite.edit")}</Button>
            <Button color="error" onClick={() => setDeleting(true)}>
              {t("delete")}
            </Button>
            <VersionSelect agentId={suite.agent_id} value={version} onChange={setVersion} disabled={start.busy} />
            <Button
              variant="contained"
              startIcon={start.busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : <PlayArrow />}
              disabled={start.busy || suite.case_count === 0}
              onClick={() => void start.run()}
            >
              {t("run.suite")}
            </Button>
          </>
        }
      />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
        {t("suite.settings", {
          repeat: suite.repeat,
          judge: suite.judge_model ? judgeLabel(suite.judge_model) : t("suite.judgeAssistant"),
        })}
      </Typography>
      <Stack spacing={4}>
        <CasesPanel suite={suite} onRun={(caseId) => void start.run([caseId])} runBusy={start.busy} />
        <RunsTable suite={suite} />
      </Stack>
      {editing && (
        <SuiteDialog
          suite={suite}
          agentId={suite.agent_id}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            notice.success(t("suite.saved"));
          }}
        />
      )}
      <ConfirmDialog
        open={deleting}
        title={t("suite.deleteTitle")}
        text={t("suite.deleteText", { name: suite.name })}
        confirmLabel={t("delete")}
        busy={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() => void confirmDelete()}
      />
    </>
  );
}
