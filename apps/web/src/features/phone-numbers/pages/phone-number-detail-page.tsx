import DeleteOutline from "@mui/icons-material/DeleteOutline";
import PhoneForwardedOutlined from "@mui/icons-material/PhoneForwardedOutlined";
import Button from "@mui/material/Button";
import Grid from "@mui/material/Grid";
import type { PhoneNumber } from "@parley/contract";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { usePhoneNumber } from "../../../api/phone-numbers.ts";
import { BackButton } from "../../../components/back-button.tsx";
import { ConfirmDialog } from "../../../components/confirm-dialog.tsx";
import { PageHeader } from "../../../components/page-header.tsx";
import { ResourceDetailPage } from "../../../components/resource-detail-page.tsx";
import { paths } from "../../../config/paths.ts";
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
  const back = <BackButton to={paths.phoneNumbers} label={t("detail.back")} />;
  return (
    <ResourceDetailPage
      query={number}
      title={t("nav.phoneNumbers")}
      back={back}
      loadingHeight={120}
      texts={{
        notFound: t("detail.notFound"),
        notFoundHint: t("detail.notFoundHint"),
        loadFailed: t("loadFailed"),
        retry: t("retry"),
      }}
    >
      {(data) => <NumberPage number={data} back={back} />}
    </ResourceDetailPage>
  );
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
