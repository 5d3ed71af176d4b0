import ReplayIcon from "@mui/icons-material/Replay";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { WebhookDelivery, WebhookEndpoint } from "@parley/contract";
import { useSnackbar } from "notistack";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorText } from "../../../components/error-text.ts";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { useDeliveries, useResendDelivery } from "../api/webhooks-api.ts";

const statusColor = { succeeded: "success", failed: "error", pending: "warning" } as const;

/** An endpoint's delivery log: every event sent, its answer, attempts and next retry; resend any. */
export function DeliveriesDialog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t, i18n } = useTranslation(["webhooks", "translation"], { nsMode: "fallback" });
  const { enqueueSnackbar } = useSnackbar();
  const titleId = useId();
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
          enqueueSnackbar(t("resent"), { variant: "success" });
        },
        onError: (error) => enqueueSnackbar(errorText(error, t("common.failed")), { variant: "error" }),
      },
    );

  const items = deliveries.data?.items ?? [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>
        {t("deliveriesTitle")}
        <Typography variant="body2" color="text.secondary" dir="ltr" sx={{ wordBreak: "break-all" }}>
          {endpoint.url}
        </Typography>
      </DialogTitle>
      <DialogContent>
        {deliveries.isPending && <ListSkeleton label={t("common.loading")} rows={4} />}
        {deliveries.isError && <Alert severity="error">{errorText(deliveries.error, t("common.failed"))}</Alert>}
        {deliveries.data && items.length === 0 && <Alert severity="info">{t("noDeliveries")}</Alert>}
        {items.length > 0 && (
          <Table size="small" aria-label={t("deliveriesTitle")}>
            <TableHead>
              <TableRow>
                <TableCell>{t("log.event")}</TableCell>
                <TableCell>{t("log.status")}</TableCell>
                <TableCell>{t("log.response")}</TableCell>
                <TableCell>{t("log.attempts")}</TableCell>
                <TableCell>{t("log.when")}</TableCell>
                <TableCell align="right">{t("common.actions")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {items.map((d) => (
                <TableRow key={d.id} hover selected={open?.id === d.id}>
                  <TableCell>
                    <Button
                      size="small"
                      onClick={() => setOpen(open?.id === d.id ? null : d)}
                      sx={{ textTransform: "none" }}
                    >
                      <code dir="ltr">{d.event_type}</code>
                    </Button>
                  </TableCell>
                  <TableCell>
                    <Chip size="small" color={statusColor[d.status]} label={t(`statuses.${d.status}`)} />
                  </TableCell>
                  <TableCell>
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
                  </TableCell>
                  <TableCell>{d.attempts}</TableCell>
                  <TableCell>
                    {date.format(new Date(d.last_attempt_at ?? d.created_at))}
                    {d.next_attempt_at && (
                      <Typography variant="caption" color="text.secondary" component="div">
                        {t("nextAttempt", { when: date.format(new Date(d.next_attempt_at)) })}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell align="right">
                    <Tooltip title={t("resend")}>
                      <IconButton
                        aria-label={t("resendNamed", { event: d.event_type })}
                        onClick={() => doResend(d)}
                        disabled={resend.isPending}
                      >
                        <ReplayIcon />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
        {deliveries.data && deliveries.data.total > 10 && (
          <TablePagination
            component="div"
            count={deliveries.data.total}
            page={page - 1}
            rowsPerPage={10}
            rowsPerPageOptions={[10]}
            onPageChange={(_, next) => setPage(next + 1)}
          />
        )}
        {open && (
          <>
            <Typography variant="subtitle2" component="h3" sx={{ mt: 2 }}>
              {t("payload")}
            </Typography>
            <pre dir="ltr" style={{ overflowX: "auto", maxHeight: 300, fontSize: 12 }}>
              {JSON.stringify(open.payload, null, 2)}
            </pre>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {t("done")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
