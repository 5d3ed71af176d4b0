import Alert from "@mui/material/Alert";
import Stack from "@mui/material/Stack";
import { useTranslation } from "react-i18next";
import { CenteredSpinner } from "../../../components/centered-spinner.tsx";
import { errorText } from "../../../components/error-text.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { useAuth } from "../../../lib/auth-context.ts";
import { usePrivacySettings } from "../api/privacy-api.ts";
import { AuditLogCard } from "../components/audit-log-card.tsx";
import { RedactionCard } from "../components/redaction-card.tsx";
import { RetentionCard } from "../components/retention-card.tsx";
import { SubjectCard } from "../components/subject-card.tsx";

/** Privacy, for the workspace's owners: how long call data is kept, and who did what. */
export default function PrivacyPage() {
  const { t } = useTranslation(["privacy", "translation"], { nsMode: "fallback" });
  const { workspace } = useAuth();
  const isOwner = workspace?.role === "owner";
  const settings = usePrivacySettings();

  if (!isOwner) {
    return (
      <>
        <PageHeader title={t("title")} subtitle={t("subtitle")} />
        <Alert severity="info">{t("ownerOnly")}</Alert>
      </>
    );
  }
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      <Stack spacing={3}>
        {settings.isPending && <CenteredSpinner />}
        {settings.error && <Alert severity="error">{errorText(settings.error, t("common.failed"))}</Alert>}
        {/* Keyed by the saved settings: a save resets the form to what the server kept. */}
        {settings.data && <RetentionCard key={JSON.stringify(settings.data)} settings={settings.data} />}
        {settings.data && <RedactionCard key={settings.data.pii_redaction} settings={settings.data} />}
        <SubjectCard />
        <AuditLogCard />
      </Stack>
    </>
  );
}
