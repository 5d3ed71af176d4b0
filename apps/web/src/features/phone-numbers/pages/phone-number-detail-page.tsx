import ArrowBack from "@mui/icons-material/ArrowBack";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import PhoneForwardedOutlined from "@mui/icons-material/PhoneForwardedOutlined";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { PhoneNumber } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link as RouterLink, useNavigate, useParams } from "react-router";
import { usePhoneNumber } from "../../../api/phone-numbers.ts";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { ListSkeleton } from "../../../components/list-placeholders.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { RetryAlert } from "../../../components/retry-alert.tsx";
import { paths } from "../../../config/paths.ts";
import { ApiError } from "../../../lib/api-error.ts";
import { AssistantsCard } from "../components/assistants-card.tsx";
import { CallNumberDialog } from "../components/call-number-dialog.tsx";
import { NumberDetails } from "../components/number-details.tsx";
import { isolatedName, nameOf } from "../components/number-name.ts";
import { RecentCallsCard } from "../components/recent-calls-card.tsx";
import { useNumberWrites } from "../hooks/use-number-writes.ts";

/** /phone-numbers/{id}: one number, its assistants, a call from it, its recent calls. */
export default function PhoneNumberDetailPage() {
  const { phoneNumberId = "" } = useParams();
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const number = usePhoneNumber(phoneNumberId);
  const back = (
    <Button
      component={RouterLink}
      to={paths.phoneNumbers}
      startIcon={<ArrowBack sx={{ "[dir=rtl] &": { transform: "scaleX(-1)" } }} />}
    >
      {t("detail.back")}
    </Button>
  );
  if (number.isPending) {
    return (
      <>
        <PageHeader title={t("nav.phoneNumbers")} actions={back} />
        <ListSkeleton label={t("common.loading")} rows={3} height={120} />
      </>
    );
  }
  if (number.error) {
    const missing = number.error instanceof ApiError && number.error.status === 404;
    return (
      <>
        <PageHeader title={t("nav.phoneNumbers")} actions={back} />
        {missing ? (
          <Paper role="alert" sx={{ p: 4, textAlign: "center" }}>
            <Typography variant="h6" component="h2">
              {t("detail.notFound")}
            </Typography>
            <Typography color="text.secondary">{t("detail.notFoundHint")}</Typography>
          </Paper>
        ) : (
          <RetryAlert
            error={number.error}
            fallback={t("loadFailed")}
            retryLabel={t("retry")}
            onRetry={() => void number.refetch()}
          />
        )}
      </>
    );
  }
  return <NumberPage number={number.data} back={back} />;
}

function NumberPage({ number, back }: { number: PhoneNumber; back: React.ReactNode }) {
  const { t } = useTranslation(["phone-numbers", "translation"], { nsMode: "fallback" });
  const navigate = useNavigate();
  const writes = useNumberWrites(t);
  const [open, setOpen] = useState<"call" | "delete" | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      <PageHeader
        title={isolatedName(nameOf(number))}
        subtitle={nameOf(number) === number.number ? undefined : number.number}
        actions={
          <>
            {back}
            <Button color="error" startIcon={<DeleteOutline />} onClick={() => setOpen("delete")}>
              {t("delete")}
            </Button>
            <Button variant="contained" startIcon={<PhoneForwardedOutlined />} onClick={() => setOpen("call")}>
              {t("call.open")}
            </Button>
          </>
        }
      />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, lg: 6 }}>
          <NumberDetails number={number} />
        </Grid>
        <Grid size={{ xs: 12, lg: 6 }}>
          <AssistantsCard number={number} />
        </Grid>
        <Grid size={12}>
          <RecentCallsCard number={number.number} />
        </Grid>
      </Grid>
      {open === "call" && (
        <CallNumberDialog
          number={number}
          onClose={close}
          onSubmit={(destination) => writes.call(number, destination).then(close)}
        />
      )}
      <ConfirmDialog
        open={open === "delete"}
        title={t("deleteTitle")}
        text={t("deleteText", { number: nameOf(number) })}
        confirmLabel={t("delete")}
        busy={writes.removing}
        onClose={close}
        onConfirm={() => writes.remove(number, () => navigate(paths.phoneNumbers, { replace: true }))}
      />
    </>
  );
}
