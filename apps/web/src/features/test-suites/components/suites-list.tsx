import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { TestSuite } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { type Column, DataTable } from "../../../components/data-table.tsx";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { keyedActions } from "../../../components/resource-table.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { useDates } from "../../../lib/dates-in-language.ts";
import { useNotice } from "../../../lib/use-notice.ts";
import { SUITES_PAGE_SIZE, useDeleteTestSuite, useTestSuites } from "../api/test-suites-api.ts";
import { testsPath } from "../paths.ts";
import { OutcomeChip } from "./outcome-chip.tsx";
import { SuiteDialog } from "./suite-dialog.tsx";

/**
 * The suites of one assistant (or, `agentId` null, of the workspace): each with its cases and its
 * last run; create, rename and delete here, cases and runs on the suite's page.
 */
export function SuitesList({ agentId }: { agentId: string | null }) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const dates = useDates();
  const navigate = useNavigate();
  const notice = useNotice();
  const [page, setPage] = useState(1);
  const suites = useTestSuites(agentId, page);
  const remove = useDeleteTestSuite();
  const [dialog, setDialog] = useState<{ suite: TestSuite | null } | null>(null);
  const [deleting, setDeleting] = useState<TestSuite | null>(null);
  const open = (suite: TestSuite) => testsPath(suite.agent_id, suite.id);

  const columns: Column<TestSuite>[] = [
    {
      header: t("columns.suite"),
      dir: "auto",
      // On a phone the table scrolls in its box rather than squeezing the name into a column of words.
      sx: { minWidth: 200 },
      cell: (suite) => (
        <Stack>
          <Link component={RouterLink} to={open(suite)} sx={{ fontWeight: 600 }}>
            {suite.name}
          </Link>
          {suite.description && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: "anywhere" }}>
              {suite.description}
            </Typography>
          )}
        </Stack>
      ),
    },
    ...(agentId
      ? []
      : [{ header: t("columns.assistant"), dir: "auto" as const, cell: (s: TestSuite) => s.agent_name }]),
    { header: t("columns.cases"), cell: (suite) => suite.case_count },
    {
      header: t("columns.lastRun"),
      cell: (suite) =>
        suite.last_run ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }} useFlexGap>
            <Link component={RouterLink} to={testsPath(suite.agent_id, suite.id, suite.last_run.id)} underline="none">
              <OutcomeChip status={suite.last_run.status} />
            </Link>
            {suite.last_run.finished_at && (
              <Typography variant="body2" color="text.secondary">
                {dates.moment(suite.last_run.finished_at)}
              </Typography>
            )}
          </Stack>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {t("neverRun")}
          </Typography>
        ),
    },
  ];
  const actions = keyedActions(
    t,
    [
      { id: "edit", icon: <EditOutlined />, label: "suite.editNamed" },
      { id: "delete", icon: <DeleteOutline />, label: "suite.deleteNamed" },
    ],
    (suite: TestSuite) => ({ name: suite.name }),
    (action, suite) => (action === "edit" ? setDialog({ suite }) : setDeleting(suite)),
  );
  const createButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog({ suite: null })}>
      {t("suite.create")}
    </Button>
  );

  const confirmDelete = async (suite: TestSuite) => {
    setDeleting(null);
    await notice.run(remove.mutateAsync(suite.id), t("suite.deleted"));
  };

  return (
    <>
      {suites.isPending ? (
        <ListSkeleton label={t("common.loading")} />
      ) : suites.error && !suites.data ? (
        <RetryAlert
          error={suites.error}
          fallback={t("loadFailed")}
          retryLabel={t("retry")}
          onRetry={() => void suites.refetch()}
        />
      ) : suites.data && suites.data.total_count > 0 ? (
        <>
          <Stack direction="row" sx={{ justifyContent: "flex-end", mb: 2 }}>
            {createButton}
          </Stack>
          <DataTable
            label={t("suitesTable")}
            rows={suites.data.data}
            columns={columns}
            actions={actions}
            pagination={
              suites.data.total_count > SUITES_PAGE_SIZE
                ? { count: suites.data.total_count, page, pageSize: SUITES_PAGE_SIZE, onPage: setPage }
                : undefined
            }
          />
        </>
      ) : (
        <EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={createButton} />
      )}
      {dialog && (
        <SuiteDialog
          suite={dialog.suite}
          agentId={agentId}
          onClose={() => setDialog(null)}
          onSaved={(suite) => {
            setDialog(null);
            notice.success(dialog.suite ? t("suite.saved") : t("suite.created"));
            if (!dialog.suite) navigate(open(suite));
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("suite.deleteTitle")}
        text={t("suite.deleteText", { name: deleting?.name ?? "" })}
        confirmLabel={t("delete")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void confirmDelete(deleting)}
      />
    </>
  );
}
