import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/Delete";
import EditIcon from "@mui/icons-material/Edit";
import HistoryIcon from "@mui/icons-material/History";
import KeyIcon from "@mui/icons-material/Key";
import SendIcon from "@mui/icons-material/Send";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import type { WebhookEndpoint } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { EmptyState } from "../../../components/list-placeholders.tsx";
import { type Column, ResourceTable, type RowAction } from "../../../components/resource-table.tsx";
import { useDeleteWebhook, useSaveWebhook, useSendTestEvent, useWebhooks } from "../api/webhooks-api.ts";
import { DeliveriesDialog } from "./deliveries-dialog.tsx";
import { SecretDialog } from "./secret-dialog.tsx";
import { WebhookDialog } from "./webhook-dialog.tsx";
import type { WebhookFormOutput } from "./webhook-form.ts";

type Open =
  | { kind: "create" }
  | { kind: "edit" | "delete" | "deliveries"; item: WebhookEndpoint }
  | { kind: "secret"; item: WebhookEndpoint; secret: string | null }
  | null;

/** Webhooks on the integrations page: endpoints that receive the workspace's events, signed. */
export function WebhooksSection() {
  const { t } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const webhooks = useWebhooks();
  const save = useSaveWebhook();
  const remove = useDeleteWebhook();
  const sendTest = useSendTestEvent();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const editing = open?.kind === "edit" ? open.item : null;

  const submit = async (values: WebhookFormOutput) => {
    const saved = await save.mutateAsync({ id: editing?.id ?? null, body: values });
    enqueueSnackbar(t(editing ? "updated" : "created"), { variant: "success" });
    // A new endpoint's secret is shown at once, so the receiver can be set up to verify it.
    setOpen(saved.secret ? { kind: "secret", item: saved, secret: saved.secret } : null);
  };
  const test = (endpoint: WebhookEndpoint) =>
    sendTest.mutate(endpoint.id, {
      onSuccess: () => enqueueSnackbar(t("testSent"), { variant: "success" }),
      onError: (error) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
    });
  const doDelete = (endpoint: WebhookEndpoint) => {
    close();
    remove.mutate(endpoint.id, {
      onSuccess: () => enqueueSnackbar(t("deleted"), { variant: "success" }),
      onError: (error) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
    });
  };

  const columns: Column<WebhookEndpoint>[] = [
    {
      header: t("fields.url"),
      sx: { maxWidth: 320 },
      cell: (e) => (
        <Stack spacing={0.5}>
          <Typography variant="body2" dir="ltr" sx={{ wordBreak: "break-all", fontFamily: "monospace" }}>
            {e.url}
          </Typography>
          {e.description && (
            <Typography variant="caption" color="text.secondary">
              {e.description}
            </Typography>
          )}
        </Stack>
      ),
    },
    {
      header: t("fields.events"),
      cell: (e) => (
        <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
          {e.events.map((event) => (
            <Chip key={event} size="small" label={event} dir="ltr" />
          ))}
        </Stack>
      ),
    },
    {
      header: t("fields.status"),
      cell: (e) => (
        <Chip
          size="small"
          variant="outlined"
          color={e.enabled ? "success" : "default"}
          label={e.enabled ? t("enabled") : t("disabled")}
        />
      ),
    },
  ];
  const actions: RowAction<WebhookEndpoint>[] = [
    {
      id: "test",
      icon: <SendIcon />,
      label: (e) => t("testNamed", { url: e.url }),
      tooltip: () => t("test"),
      onClick: test,
    },
    {
      id: "deliveries",
      icon: <HistoryIcon />,
      label: (e) => t("deliveriesNamed", { url: e.url }),
      tooltip: () => t("deliveriesTitle"),
      onClick: (item) => setOpen({ kind: "deliveries", item }),
    },
    {
      id: "secret",
      icon: <KeyIcon />,
      label: (e) => t("secretNamed", { url: e.url }),
      tooltip: () => t("secretTitle"),
      onClick: (item) => setOpen({ kind: "secret", item, secret: null }),
    },
    {
      id: "edit",
      icon: <EditIcon />,
      label: (e) => t("editNamed", { url: e.url }),
      tooltip: () => t("editTitle"),
      onClick: (item) => setOpen({ kind: "edit", item }),
    },
    {
      id: "delete",
      icon: <DeleteIcon />,
      label: (e) => t("deleteNamed", { url: e.url }),
      tooltip: () => t("delete"),
      onClick: (item) => setOpen({ kind: "delete", item }),
    },
  ];

  const addButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen({ kind: "create" })}>
      {t("create")}
    </Button>
  );
  return (
    <section aria-labelledby="webhooks-heading">
      <Stack direction={{ xs: "column", sm: "row" }} spacing={2} sx={{ mb: 2, justifyContent: "space-between" }}>
        <div>
          <Typography id="webhooks-heading" variant="h5" component="h2">
            {t("title")}
          </Typography>
          <Typography color="text.secondary">{t("subtitle")}</Typography>
        </div>
        <div>{addButton}</div>
      </Stack>
      <ResourceTable
        label={t("title")}
        query={webhooks}
        columns={columns}
        actions={actions}
        empty={<EmptyState title={t("emptyTitle")} hint={t("emptyHint")} action={addButton} />}
      />
      {(open?.kind === "create" || open?.kind === "edit") && (
        <WebhookDialog endpoint={editing} onClose={close} onSubmit={submit} />
      )}
      {open?.kind === "secret" && <SecretDialog endpoint={open.item} initial={open.secret} onClose={close} />}
      {open?.kind === "deliveries" && <DeliveriesDialog endpoint={open.item} onClose={close} />}
      <ConfirmDialog
        open={open?.kind === "delete"}
        title={t("deleteTitle")}
        text={t("deleteText", { url: open?.kind === "delete" ? open.item.url : "" })}
        confirmLabel={t("delete")}
        onClose={close}
        onConfirm={() => open?.kind === "delete" && doDelete(open.item)}
      />
    </section>
  );
}
