import AddIcon from "@mui/icons-material/Add";
import AutoAwesomeOutlined from "@mui/icons-material/AutoAwesomeOutlined";
import ContentCopyOutlined from "@mui/icons-material/ContentCopyOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { Assistant } from "@parley/contract";
import { lazy, Suspense, useDeferredValue, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink } from "react-router";
import { useAssistants } from "../../../api/assistants.ts";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { useOpenedOnce } from "../../../components/opened-once.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../config/paths.ts";
import { dateFormat } from "../../../lib/date-format.ts";
import { useAssistantActions } from "../hooks/use-assistant-actions.ts";
import { assistantSummary, searchAssistants } from "../utils/assistant-list.ts";

// The create and template dialogs (a form with its validation, the template gallery) load when
// first opened: the list is what everyone opening this page waits for.
const CreateAssistantDialog = lazy(() =>
  import("../components/create-assistant-dialog.tsx").then((module) => ({ default: module.CreateAssistantDialog })),
);
const TemplateGalleryDialog = lazy(() =>
  import("../components/template-gallery-dialog.tsx").then((module) => ({ default: module.TemplateGalleryDialog })),
);

export default function AssistantsPage() {
  const { t, i18n } = useTranslation("assistants");
  const assistants = useAssistants();
  const actions = useAssistantActions();
  const [search, setSearch] = useState("");
  const [dialog, setDialog] = useState<"create" | "template" | null>(null);
  const createMounted = useOpenedOnce(dialog === "create");
  const templateMounted = useOpenedOnce(dialog === "template");
  const [deleting, setDeleting] = useState<Assistant | null>(null);
  const [busy, setBusy] = useState(false);
  // The list is drawn in an interruptible render a moment after its data arrives (a query's answer
  // otherwise renders all at once, table and fields styled for the first time, in one long task
  // while the page is already on screen); the spinner stays until it is drawn.
  const list = useDeferredValue(assistants.data);
  const drawing = assistants.data !== undefined && list !== assistants.data;
  const shown = list ? searchAssistants(list, search) : [];

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    await actions.remove(deleting);
    setBusy(false);
    setDeleting(null);
  };

  return (
    <>
      <PageHeader
        title={t("list.title")}
        subtitle={t("list.subtitle")}
        actions={
          <>
            <Button variant="outlined" startIcon={<AutoAwesomeOutlined />} onClick={() => setDialog("template")}>
              {t("list.fromTemplate")}
            </Button>
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setDialog("create")}>
              {t("list.create")}
            </Button>
          </>
        }
      />
      {(assistants.isPending || (drawing && !list)) && <CenteredSpinner label={t("loading")} />}
      {assistants.isError && (
        <Typography color="error" role="alert">
          {errorText(assistants.error, t("list.loadFailed"))}
        </Typography>
      )}
      {list?.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
          <Typography variant="h6" component="h2">
            {t("list.emptyTitle")}
          </Typography>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {t("list.emptyText")}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ justifyContent: "center" }}>
            <Button variant="outlined" onClick={() => setDialog("template")}>
              {t("list.fromTemplate")}
            </Button>
            <Button variant="contained" onClick={() => setDialog("create")}>
              {t("list.create")}
            </Button>
          </Stack>
        </Paper>
      )}
      {list && list.length > 0 && (
        <>
          <TextField
            type="search"
            size="small"
            label={t("list.search")}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            sx={{ mb: 2, width: { xs: "100%", sm: 360 } }}
          />
          <TableContainer component={Paper}>
            <Table aria-label={t("list.title")}>
              <TableHead>
                <TableRow>
                  <TableCell>{t("list.name")}</TableCell>
                  <TableCell>{t("list.llm")}</TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("list.stt")}</TableCell>
                  <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{t("list.tts")}</TableCell>
                  <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{t("list.updated")}</TableCell>
                  <TableCell align="right">{t("list.actions")}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={6} align="center">
                      {t("list.noMatch", { search })}
                    </TableCell>
                  </TableRow>
                )}
                {shown.map((a) => {
                  const summary = assistantSummary(a);
                  const updated = dateFormat(i18n.language, { dateStyle: "medium" }).format(new Date(a.updated_at));
                  return (
                    <TableRow key={a.id} hover>
                      <TableCell>
                        <Link
                          component={RouterLink}
                          to={`${paths.assistants}/${a.id}`}
                          dir="auto"
                          sx={{ fontWeight: 600 }}
                        >
                          {a.name}
                        </Link>
                      </TableCell>
                      <TableCell>{`${summary.llm} · ${summary.model}`}</TableCell>
                      <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{summary.stt}</TableCell>
                      <TableCell sx={{ display: { xs: "none", md: "table-cell" } }}>{summary.tts}</TableCell>
                      <TableCell sx={{ display: { xs: "none", sm: "table-cell" } }}>{updated}</TableCell>
                      <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
                        <IconButton
                          aria-label={t("list.duplicate", { name: a.name })}
                          onClick={() => void actions.duplicate(a)}
                        >
                          <ContentCopyOutlined />
                        </IconButton>
                        <IconButton aria-label={t("list.delete", { name: a.name })} onClick={() => setDeleting(a)}>
                          <DeleteOutline />
                        </IconButton>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
      {createMounted && (
        <Suspense fallback={null}>
          <CreateAssistantDialog open={dialog === "create"} onClose={() => setDialog(null)} onCreate={actions.create} />
        </Suspense>
      )}
      {templateMounted && (
        <Suspense fallback={null}>
          <TemplateGalleryDialog
            open={dialog === "template"}
            onClose={() => setDialog(null)}
            onCreate={actions.createFromTemplate}
          />
        </Suspense>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("list.deleteTitle")}
        text={t("list.deleteText", { name: deleting?.name ?? "" })}
        confirmLabel={t("list.deleteConfirm")}
        busy={busy}
        onClose={() => setDeleting(null)}
        onConfirm={() => void remove()}
      />
    </>
  );
}
