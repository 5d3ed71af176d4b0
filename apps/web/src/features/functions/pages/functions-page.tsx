import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import type { ToolFunction } from "@parley/contract";
import { useTranslation } from "react-i18next";
import { type FunctionSaveBody, useDeleteFunction, useFunctions, useSaveFunction } from "../../../api/functions.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { useResourcePage } from "../../../lib/use-resource-page.ts";
import { FunctionDialog } from "../components/function-dialog.tsx";
import { type FunctionAction, FunctionsTable } from "../components/functions-table.tsx";
import { TestFunctionDialog } from "../components/test-function-dialog.tsx";

/** Functions: HTTP endpoints an assistant can call as tools during a conversation. */
export default function FunctionsPage() {
  const { t } = useTranslation(["functions", "translation"], { nsMode: "fallback" });
  const functions = useFunctions();
  const page = useResourcePage<ToolFunction, FunctionAction, FunctionSaveBody>(t, {
    save: useSaveFunction(),
    remove: useDeleteFunction(),
  });
  const { open, setOpen, close } = page;

  const createButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ kind: "create" })}>
      {t("create")}
    </Button>
  );
  return (
    <>
      <PageHeader title={t("nav.functions")} subtitle={t("subtitle")} actions={createButton} />
      <FunctionsTable
        functions={functions}
        empty={<EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={createButton} />}
        onAction={(kind, item) => setOpen({ kind, item })}
      />
      {(open?.kind === "create" || open?.kind === "edit") && (
        <FunctionDialog fn={page.editing} onClose={close} onSubmit={page.save} />
      )}
      {open?.kind === "test" && <TestFunctionDialog fn={open.item} onClose={close} />}
      <ConfirmDialog
        open={open?.kind === "delete"}
        title={t("deleteTitle")}
        text={t("deleteText", { name: open?.kind === "delete" ? open.item.name : "" })}
        confirmLabel={t("delete")}
        onClose={close}
        onConfirm={() => open?.kind === "delete" && page.remove(open.item)}
      />
    </>
  );
}
