import ReplayIcon from "@mui/icons-material/Replay";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import type { WebhookDelivery, WebhookEndpoint } from "@parley/contract";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type Column, DataTable } from "../../../components/data-table.tsx";
import { DoneDialog } from "../../../components/done-dialog.tsx";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { useNotice } from "../../../lib/use-notice.ts";
import { useDeliveries, useResendDelivery } from "../api/webhooks-api.ts";
import { DELIVERY_BODY_ID, DeliveryBody } from "./delivery-body.tsx";

const statusColor = { succeeded: "success", failed: "error", pending: "warning" } as const;
const PAGE_SIZE = 10;

/** An endpoint's delivery log: every event sent, its answer, attempts and next retry; resend any. */
export function DeliveriesDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t, i18n } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const notice = useNotice();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<WebhookDelivery | null>(null);
  const deliveries = useDeliveries(endpoint.id, page);
  const resend = useResendDelivery();
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: "short", timeStyle: "medium" });

  const doResend = (delivery: WebhookDelivery) =>
    resend.mutate(
      { endpointId: endpoint.id, deliveryId: delivery.id },
      {
        onSuccess: () => {
          setPage(1);
          notice.success(t("resent"));
        },
        onError: notice.failure,
      },
    );

  const items = deliveries.data?.items ?? [];
  const total = deliveries.data?.total ?? 0;
  const columns = deliveryColumns(t, date, open?.id ?? null, (d) => setOpen(open?.id === d.id ? null : d));
  return (
    <DoneDialog
      maxWidth="md"
      title={
        <>
          {t("deliveriesTitle")}
          <Typography variant="body2" color="text.secondary" dir="ltr" sx={{ wordBreak: "break-all" }}>
            {endpoint.url}
          </Typography>
        </>
      }
      doneLabel={t("done")}
      onClose={onClose}
    >
      {deliveries.isPending && <ListSkeleton label={t("common.loading")} rows={4} />}
      {deliveries.isError && <Alert severity="error">{errorText(deliveries.error, t("common.failed"))}</Alert>}
      {deliveries.data && items.length === 0 && <Alert severity="info">{t("noDeliveries")}</Alert>}
      {items.length > 0 && (
        <DataTable
          label={t("deliveriesTitle")}
          size="small"
          container="none"
          rows={items}
          columns={columns}
          rowProps={(d) => ({ hover: true, selected: open?.id === d.id })}
          actions={[
            {
              id: "resend",
              icon: <ReplayIcon />,
              label: (d) => t("resendNamed", { event: d.event_type }),
              tooltip: () => t("resend"),
              onClick: doResend,
              disabled: resend.isPending,
            },
          ]}
          pagination={total > PAGE_SIZE ? { count: total, page, pageSize: PAGE_SIZE, onPage: setPage } : undefined}
        />
      )}
      {open && <DeliveryBody delivery={open} />}
    </DoneDialog>
  );
}

/** The log's columns: the event, the outcome, the answer, attempts, when, and the body it sent. */
function deliveryColumns(
  t: TFunction,
  date: Intl.DateTimeFormat,
  openId: string | null,
  onToggle: (delivery: WebhookDelivery) => void,
): Column<WebhookDelivery>[] {
  return [
    { header: t("log.event"), cell: (d) => <code dir="ltr">{d.event_type}</code> },
    {
      header: t("log.status"),
      cell: (d) => <Chip size="small" color={statusColor[d.status]} label={t(`statuses.${d.status}`)} />,
    },
    {
      header: t("log.response"),
      cell: (d) => (
        <>
          {d.response_status ?? "—"}
          {d.response_time_ms !== null && (
            <Typography variant="caption" color="text.secondary" component="div">
              {t("ms", { value: d.response_time_ms })}
            </Typography>
          )}
          {d.error && (
            <Typography variant="caption" color="error" component="div" sx={{ maxWidth: 260 }}>
              {d.error}
            </Typography>
          )}
        </>
      ),
    },
    { header: t("log.attempts"), cell: (d) => d.attempts },
    {
      header: t("log.when"),
      cell: (d) => (
        <>
          {date.format(new Date(d.last_attempt_at ?? d.created_at))}
          {d.next_attempt_at && (
            <Typography variant="caption" color="text.secondary" component="div">
              {t("nextAttempt", { when: date.format(new Date(d.next_attempt_at)) })}
            </Typography>
          )}
        </>
      ),
    },
    {
      // The request itself, what a receiver's developer looks for first (issue 26).
      header: t("payload"),
      cell: (d) => {
        const shown = openId === d.id;
        return (
          <Button
            size="small"
            onClick={() => onToggle(d)}
            aria-expanded={shown}
            aria-controls={shown ? DELIVERY_BODY_ID : undefined}
            aria-label={shown ? t("hideBody") : t("showBodyNamed", { event: d.event_type })}
            sx={{ whiteSpace: "nowrap" }}
          >
            {shown ? t("hideBody") : t("showBody")}
          </Button>
        );
      },
    },
  ];
}
