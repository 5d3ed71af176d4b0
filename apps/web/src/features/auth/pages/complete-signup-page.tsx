import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { completeMagicLinkSignup } from "../api/flows-api.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { SignupForm } from "../components/signup-form.tsx";

export default function CompleteSignupPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get("token") ?? "";
  return (
    <AuthCard title={t("auth.completeSignupTitle")} subtitle={t("auth.completeSignupSubtitle")}>
      <SignupForm initialName="" submit={(name) => completeMagicLinkSignup(token, name)} />
    </AuthCard>
  );
}
