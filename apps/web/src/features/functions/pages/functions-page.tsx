import AddIcon from "@mui/icons-material/Add";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import type { ToolFunction } from "@parley/contract";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState, ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { createFunction, deleteFunction, functionsQuery, updateFunction } from "../api/functions-api.ts";
import { FunctionDialog } from "../components/function-dialog.tsx";
import type { FunctionSaveBody } from "../components/function-form.ts";
import { type FunctionAction, FunctionsTable } from "../components/functions-table.tsx";
import { TestFunctionDialog } from "../components/test-function-dialog.tsx";

type Open = { kind: "create" } | { kind: FunctionAction; fn: ToolFunction } | null;

/** Functions: HTTP endpoints an assistant can call as tools during a conversation. */
export default function FunctionsPage() {
  const { t } = useTranslation(["functions", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const queryClient = useQueryClient();
  const functions = useQuery(functionsQuery());
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["functions"] });

  const save = async (body: FunctionSaveBody) => {
    const editing = open?.kind === "edit" ? open.fn : null;
    // A failure is thrown back to the dialog, which keeps what was typed and shows why.
    if (editing) await updateFunction(editing.id, body);
    else await createFunction({ ...body, secret: body.secret ?? undefined });
    enqueueSnackbar(t(editing ? "updated" : "created"), { variant: "success" });
    close();
    await refresh();
  };

  const remove = async (fn: ToolFunction) => {
    close();
    try {
      await deleteFunction(fn.id);
      enqueueSnackbar(t("deleted"), { variant: "success" });
      await refresh();
    } catch (error) {
      enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" });
    }
  };

  return (
    <>
      <PageHeader
        title={t("nav.functions")}
        subtitle={t("subtitle")}
        actions={
          <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ kind: "create" })}>
            {t("create")}
          </Button>
        }
      />
      {functions.isPending && <ListSkeleton label={t("common.loading")} />}
      {functions.isError && <Alert severity="error">{errorText(functions.error, t("common.failed"))}</Alert>}
      {functions.data?.length === 0 && (
        <EmptyState
          title={t("emptyTitle")}
          hint={t("emptyHint")}
          action={
            <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ kind: "create" })}>
              {t("create")}
            </Button>
          }
        />
      )}
      {functions.data && functions.data.length > 0 && (
        <FunctionsTable functions={functions.data} onAction={(kind, fn) => setOpen({ kind, fn })} />
      )}
      {(open?.kind === "create" || open?.kind === "edit") && (
        <FunctionDialog fn={open.kind === "edit" ? open.fn : null} onClose={close} onSubmit={save} />
      )}
      {open?.kind === "test" && <TestFunctionDialog fn={open.fn} onClose={close} />}
      <ConfirmDialog
        open={open?.kind === "delete"}
        title={t("deleteTitle")}
        text={t("deleteText", { name: open?.kind === "delete" ? open.fn.name : "" })}
        confirmLabel={t("delete")}
        onClose={close}
        onConfirm={() => open?.kind === "delete" && void remove(open.fn)}
      />
    </>
  );
}
