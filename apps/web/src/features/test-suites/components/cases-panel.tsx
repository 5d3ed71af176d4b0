import AddIcon from "@mui/icons-material/Add";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import EditOutlined from "@mui/icons-material/EditOutlined";
import PlayArrowOutlined from "@mui/icons-material/PlayArrowOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { type GenerateTestCasesBody, TEST_SUITE_LIMITS, type TestCase, type TestSuite } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import type { Column } from "../../../components/data-table.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { keyedActions, ResourceTable } from "../../../components/resource-table.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useDeleteTestCase, useGenerateTestCases, useTestCases } from "../api/test-suites-api.ts";
import { CaseDialog } from "./case-dialog.tsx";
import { GenerateMenu } from "./generate-menu.tsx";

/** The suite's cases: write, edit, generate, run one, delete. */
export function CasesPanel(props: { suite: TestSuite; onRun: (caseId: string) => void; runBusy: boolean }) {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const { suite } = props;
  const cases = useTestCases(suite.id);
  const remove = useDeleteTestCase(suite.id);
  const generate = useGenerateTestCases(suite.id);
  const notice = useNotice();
  const [editing, setEditing] = useState<{ testCase: TestCase | null } | null>(null);
  const [deleting, setDeleting] = useState<TestCase | null>(null);
  const [generateError, setGenerateError] = useState<string | null>(null);
  const full = (cases.data?.length ?? 0) >= TEST_SUITE_LIMITS.casesPerSuite;

  const columns: Column<TestCase>[] = [
    { header: t("columns.case"), dir: "auto", cell: (c) => <Box sx={{ fontWeight: 600 }}>{c.name}</Box> },
    { header: t("columns.caller"), cell: (c) => t(`caller.modes.${c.caller.mode}`) },
    { header: t("columns.line"), cell: (c) => t(`caller.profiles.${c.caller.profile}`) },
    {
      header: t("columns.expectations"),
      cell: (c) => c.expectations.map((e) => t(`expectation.types.${e.type}`)).join(", "),
    },
  ];
  const actions = keyedActions(
    t,
    [
      { id: "run", icon: <PlayArrowOutlined />, label: "case.runNamed" },
      { id: "edit", icon: <EditOutlined />, label: "case.editNamed" },
      { id: "delete", icon: <DeleteOutline />, label: "case.deleteNamed" },
    ],
    (c: TestCase) => ({ name: c.name }),
    (action, c) => {
      if (action === "run") props.onRun(c.id);
      else if (action === "edit") setEditing({ testCase: c });
      else setDeleting(c);
    },
  ).map((action) => (action.id === "run" ? { ...action, disabled: props.runBusy } : action));

  const runGenerate = async (body: GenerateTestCasesBody) => {
    setGenerateError(null);
    try {
      const made = await generate.mutateAsync(body);
      notice.success(t("generate.done", { n: made.length }));
    } catch (error) {
      // Said where the cases would have appeared, and kept until dismissed: it is the server's reason.
      setGenerateError(errorText(error, t("generate.failed")));
      throw error;
    }
  };
  const confirmDelete = async (c: TestCase) => {
    setDeleting(null);
    await notice.run(remove.mutateAsync(c.id), t("case.deleted"));
  };
  const newCase = (
    <Button variant="contained" startIcon={<AddIcon />} disabled={full} onClick={() => setEditing({ testCase: null })}>
      {t("case.create")}
    </Button>
  );
  const generateMenu = <GenerateMenu busy={generate.isPending} onGenerate={runGenerate} />;

  return (
    <Box component="section" aria-labelledby="test-cases-heading">
      <Stack
        direction={{ xs: "column", sm: "row" }}
        spacing={1}
        useFlexGap
        sx={{ mb: 2, justifyContent: "space-between", alignItems: { sm: "center" } }}
      >
        <Typography id="test-cases-heading" variant="h6" component="h2">
          {t("case.heading")}
        </Typography>
        {(cases.data?.length ?? 0) > 0 && (
          <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
            {generateMenu}
            {newCase}
          </Stack>
        )}
      </Stack>
      {generateError && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setGenerateError(null)}>
          {generateError}
        </Alert>
      )}
      {full && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t("case.full", { max: TEST_SUITE_LIMITS.casesPerSuite })}
        </Alert>
      )}
      <ResourceTable
        label={t("case.heading")}
        query={{ data: cases.data, isPending: cases.isPending, error: cases.error }}
        columns={columns}
        actions={actions}
        empty={
          <EmptyState
            title={t("case.emptyTitle")}
            hint={t("case.emptyHint")}
            action={
              <Stack direction="row" spacing={1} useFlexGap sx={{ justifyContent: "center", flexWrap: "wrap" }}>
                {newCase}
                {generateMenu}
              </Stack>
            }
          />
        }
      />
      {editing && (
        <CaseDialog
          suiteId={suite.id}
          testCase={editing.testCase}
          onClose={() => setEditing(null)}
          onSaved={() => {
            notice.success(editing.testCase ? t("case.saved") : t("case.created"));
            setEditing(null);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("case.deleteTitle")}
        text={t("case.deleteText", { name: deleting?.name ?? "" })}
        confirmLabel={t("delete")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => deleting && void confirmDelete(deleting)}
      />
    </Box>
  );
}
