import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import type { CallWidget } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { paths } from "../../../config/paths.ts";
import { useCallWidgets, useDeleteCallWidget } from "../api/call-widgets-api.ts";
import { CreateWidgetDialog } from "../components/create-widget-dialog.tsx";
import { WidgetsTable } from "../components/widgets-table.tsx";

/** /call-widgets: the workspace's embeddable call buttons; a new one opens in its editor. */
export default function CallWidgetsPage() {
  const { t } = useTranslation(["call-widgets", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const navigate = useNavigate();
  const widgets = useCallWidgets();
  const remove = useDeleteCallWidget();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<CallWidget | null>(null);

  const createButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setCreating(true)}>
      {t("create")}
    </Button>
  );
  const confirmDelete = () => {
    const widget = deleting;
    setDeleting(null);
    if (!widget) return;
    remove.mutate(widget.id, {
      onSuccess: () => enqueueSnackbar(t("deleted"), { variant: "success" }),
      onError: (error) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
    });
  };
  return (
    <>
      <PageHeader title={t("nav.callWidgets")} subtitle={t("subtitle")} actions={createButton} />
      <WidgetsTable
        widgets={widgets}
        empty={<EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={createButton} />}
        onDelete={setDeleting}
      />
      {creating && (
        <CreateWidgetDialog
          onClose={() => setCreating(false)}
          onCreated={(widget) => {
            enqueueSnackbar(t("created"), { variant: "success" });
            navigate(`${paths.callWidgets}/${widget.id}`);
          }}
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("deleteTitle")}
        text={t("deleteText", { name: deleting?.name ?? "" })}
        confirmLabel={t("delete")}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
      />
    </>
  );
}
