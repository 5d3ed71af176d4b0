import Alert from "@mui/material/Alert";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { useAssistant } from "../../../api/assistants.ts";
import { errorText } from "../../../components/error-text.ts";
import { PageHeader } from "../../../components/page-header.tsx";
import { ApiError } from "../../../lib/api-error.ts";
import { AssistantTrail } from "../components/assistant-trail.tsx";
import { SuitesList } from "../components/suites-list.tsx";

/** /assistants/{assistantId}/tests: the suites that call this assistant. */
export default function AssistantTestsPage() {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  const { assistantId = "" } = useParams();
  const assistant = useAssistant(assistantId);
  if (assistant.error)
    return (
      <>
        <AssistantTrail assistantId={assistantId} />
        <Alert severity="error">
          {assistant.error instanceof ApiError && assistant.error.status === 404
            ? t("assistantNotFound")
            : errorText(assistant.error, t("loadFailed"))}
        </Alert>
      </>
    );
  return (
    <>
      <AssistantTrail assistantId={assistantId} />
      <PageHeader title={t("assistantTitle", { name: assistant.data?.name ?? "…" })} subtitle={t("subtitle")} />
      <SuitesList agentId={assistantId} />
    </>
  );
}
