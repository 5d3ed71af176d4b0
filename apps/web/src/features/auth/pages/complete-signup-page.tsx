import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { completeMagicLinkSignup } from "../api/flows-api.ts";
import { AuthCard } from "../components/auth-card.tsx";
import { LinkGate } from "../components/link-gate.tsx";
import { SignupForm } from "../components/signup-form.tsx";

/** Finishes a magic-link sign-up; a used or expired link says so before the name is typed. */
export default function CompleteSignupPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const token = search.get("token") ?? "";
  return (
    <AuthCard title={t("auth.completeSignupTitle")} subtitle={t("auth.completeSignupSubtitle")}>
      <LinkGate kind="magic_link" token={token}>
        {() => <SignupForm initialName="" submit={(name) => completeMagicLinkSignup(token, name)} />}
      </LinkGate>
    </AuthCard>
  );
}
