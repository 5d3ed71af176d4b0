import { useTranslation } from "react-i18next";
import { PageHeader } from "../../../components/page-header.tsx";
import { SuitesList } from "../components/suites-list.tsx";

/** /tests: every test suite of the workspace, whichever assistant each calls. */
export default function TestsPage() {
  const { t } = useTranslation(["test-suites", "translation"], { nsMode: "fallback" });
  return (
    <>
      <PageHeader title={t("title")} subtitle={t("subtitle")} />
      <SuitesList agentId={null} />
    </>
  );
}
