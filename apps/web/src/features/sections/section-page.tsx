import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/page-header.tsx";

/** A section whose features arrive with their own issue: the frame and its heading, nothing invented. */
export default function SectionPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return <PageHeader title={t(titleKey)} />;
}
