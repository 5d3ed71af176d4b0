import AddIcon from "@mui/icons-material/Add";
import ContentCopyOutlined from "@mui/icons-material/ContentCopyOutlined";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Stack from "@mui/material/Stack";
import TablePagination from "@mui/material/TablePagination";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import type { WorkflowSummary } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate } from "react-router";
import { useAssistants } from "../../../api/assistants.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { type Column, ResourceTable, type RowAction } from "../../../components/resource-table.tsx";
import { paths } from "../../../config/paths.ts";
import { useSnackbar } from "../../../lib/snackbar.ts";
import { useCreateWorkflow, useDeleteWorkflow, useDuplicateWorkflow, useWorkflows } from "../api/workflows-api.ts";
import { CreateWorkflowDialog } from "../components/create-workflow-dialog.tsx";

const PER_PAGE = 20;

/** /workflows: the workspace's workflows, who uses each, and create, duplicate and delete. */
export default function WorkflowsPage() {
  const { t, i18n } = useTranslation(["workflows", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState("");
  const workflows = useWorkflows({ page, items_per_page: PER_PAGE, search: search.trim() || undefined });
  const assistants = useAssistants();
  const create = useCreateWorkflow();
  const duplicate = useDuplicateWorkflow();
  const remove = useDeleteWorkflow();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<WorkflowSummary | null>(null);
  const failure = (error: unknown) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });

  const assistantName = (id: string) => assistants.data?.find((a) => a.id === id)?.name;
  const date = (iso: string) => new Intl.DateTimeFormat(i18n.language, { dateStyle: "medium" }).format(new Date(iso));
  const columns: Column<WorkflowSummary>[] = [
    {
      header: t("columns.name"),
      cell: (row) => (
        <Stack>
          <Link component={RouterLink} to={`${paths.workflows}/${row.id}`} sx={{ fontWeight: 600 }} dir="auto">
            {row.name}
          </Link>
          {row.description && (
            <Typography variant="caption" color="text.secondary" dir="auto">
              {row.description}
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      header: t("columns.status"),
      cell: (row) =>
        row.published_version === null ? (
          <Chip size="small" label={t("status.neverPublished")} />
        ) : (
          <Chip
            size="small"
            color={row.has_unpublished_changes ? "primary" : "success"}
            label={
              row.has_unpublished_changes
                ? t("status.changed", { n: row.published_version })
                : t("status.published", { n: row.published_version })
            }
          />
        ),
    },
    { header: t("columns.nodes"), cell: (row) => row.node_count },
    {
      header: t("columns.assistants"),
      cell: (row) =>
        row.assistant_ids.length === 0 ? (
          <Typography variant="body2" color="text.secondary" component="span">
            {t("columns.noAssistants")}
          </Typography>
        ) : (
          <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
            {row.assistant_ids.map((id) => (
              <Chip
                key={id}
                size="small"
                label={assistantName(id) ?? t("columns.unknownAssistant")}
                component={RouterLink}
                to={`${paths.assistants}/${id}/workflow`}
                clickable
              />
            ))}
          </Stack>
        ),
    },
    { header: t("columns.updated"), cell: (row) => date(row.updated_at) },
  ];
  const actions: RowAction<WorkflowSummary>[] = [
    {
      id: "duplicate",
      icon: <ContentCopyOutlined />,
      label: (row) => t("duplicateNamed", { name: row.name }),
      tooltip: () => t("duplicate"),
      onClick: (row) =>
        duplicate.mutate(row.id, {
          onSuccess: (copy) => enqueueSnackbar(t("duplicated", { name: copy.name }), { variant: "success" }),
          onError: failure,
        }),
    },
    {
      id: "delete",
      icon: <DeleteOutline />,
      label: (row) => t("deleteNamed", { name: row.name }),
      tooltip: () => t("delete"),
      onClick: setDeleting,
    },
  ];
  const data = workflows.data;
  const add = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)} sx={{ whiteSpace: "nowrap" }}>
      {t("create.open")}
    </Button>
  );
  return (
    <>
      <PageHeader title={t("nav.workflows")} subtitle={t("subtitle")} actions={add} />
      {(data?.total_count ?? 0) > 0 || search ? (
        <TextField
          size="small"
          type="search"
          label={t("search")}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          sx={{ mb: 2, width: { xs: "100%", sm: 320 } }}
        />
      ) : null}
      {workflows.error && !workflows.isPending ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void workflows.refetch()}>
              {t("retry")}
            </Button>
          }
        >
          {errorText(workflows.error, t("loadFailed"))}
        </Alert>
      ) : (
        <ResourceTable
          label={t("nav.workflows")}
          query={{ data: data?.data, isPending: workflows.isPending, error: workflows.error }}
          columns={columns}
          actions={actions}
          empty={
            search ? (
              <Paper variant="outlined" sx={{ p: 3 }}>
                <Typography color="text.secondary">{t("noMatch")}</Typography>
              </Paper>
            ) : (
              <EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={add} />
            )
          }
        />
      )}
      {data && data.total_count > PER_PAGE && (
        <TablePagination
          component="div"
          count={data.total_count}
          page={page - 1}
          rowsPerPage={PER_PAGE}
          rowsPerPageOptions={[PER_PAGE]}
          onPageChange={(_, next) => setPage(next + 1)}
          labelDisplayedRows={({ from, to, count }) => t("pageRange", { from, to, count })}
          getItemAriaLabel={(type) =>
            t(
              type === "next"
                ? "nextPage"
                : type === "previous"
                  ? "previousPage"
                  : type === "first"
                    ? "firstPage"
                    : "lastPage",
            )
          }
        />
      )}
      {creating && (
        <CreateWorkflowDialog
          onClose={() => setCreating(false)}
          onCreate={async (body) => {
            const workflow = await create.mutateAsync(body);
            enqueueSnackbar(t("created"), { variant: "success" });
            setCreating(false);
            await navigate(`${paths.workflows}/${workflow.id}`);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("deleteTitle")}
        text={
          deleting && deleting.assistant_ids.length > 0
            ? t("deleteTextAttached", { name: deleting.name, count: deleting.assistant_ids.length })
            : t("deleteText", { name: deleting?.name ?? "" })
        }
        confirmLabel={t("delete")}
        busy={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) {
            remove.mutate(deleting.id, {
              onSuccess: () => enqueueSnackbar(t("deleted"), { variant: "success" }),
              onError: failure,
            });
          }
          setDeleting(null);
        }}
      />
    </>
  );
}
